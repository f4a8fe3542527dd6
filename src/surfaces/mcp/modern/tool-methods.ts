import { askingCall } from '../service/asking-call.js';
import { missingCapabilityError } from '../service/questions.js';
import { type ToolService, toolServiceOf } from '../service/tool-service.js';
import { callingRuntimeOf, toolListOf } from '../service/views.js';
import { META, mirroredMismatch } from '../wire/envelope.js';
import { ERRORS, errorAnswer, type Id, responseText, type WireAnswer } from '../wire/jsonrpc.js';
import { type MethodTable, missingCapabilityAnswer, type ServingKit } from './method-table.js';

/**
 * The rows of the tools: `server/discover` and each `tools/list` page as JSON text made once per
 * process from the prepared documents, and `tools/call` through the runtime and the tool service's
 * one mapping of an outcome to an answer.
 */
export function installToolMethods(
  table: MethodTable,
  kit: ServingKit,
  supportedVersions: readonly string[],
): void {
  const { cache, resultMeta } = kit;

  let discoverText: string | undefined;
  // Made on first use, after every extension has installed its rows and declared itself.
  table.set('server/discover', {
    answer: ({ id }) => {
      discoverText ??= JSON.stringify({
        resultType: 'complete',
        supportedVersions,
        capabilities: kit.capabilities,
        ...cache,
        _meta: resultMeta,
      });
      return { status: 200, body: responseText(id, discoverText) };
    },
  });

  // The caller's list: its view's pages (every tool without `auth`), with or without views' links.
  table.set('tools/list', {
    alwaysOurs: true,
    answer: toolPages(kit, ({ view, capabilities }) => toolListOf(view, capabilities)),
  });

  table.set('tools/call', {
    alwaysOurs: true,
    headerMismatch: (params, header, view) =>
      typeof params.name === 'string'
        ? mirroredMismatch(toolServiceOf(view).mirrored.get(params.name), params.arguments, header)
        : undefined,
    answer: ({ id, params, meta, capabilities, caller, view }) => {
      const { name, arguments: args = {} } = params;
      if (typeof name !== 'string')
        return errorAnswer(id, ERRORS.invalidParams, 'tools/call needs a tool name');
      return {
        notifies: meta.progressToken !== undefined || meta[META.logLevel] !== undefined,
        run: async (notify, signal) => {
          // The caller's view refuses a tool it may not see as an unknown one, before anything of it
          // loads: one its scopes do not cover, or an app-only one when it renders no view.
          const outcome = await askingCall(callingRuntimeOf(view, capabilities), kit.states, {
            id,
            caller,
            name,
            args,
            meta,
            capabilities,
            requestState: params.requestState,
            inputResponses: params.inputResponses,
            notify: (notification) => notify(JSON.stringify({ jsonrpc: '2.0', ...notification })),
            signal,
          });
          if ('invalid' in outcome) return errorAnswer(id, ERRORS.invalidParams, outcome.invalid);
          if ('missing' in outcome)
            return missingCapabilityAnswer(id, missingCapabilityError(outcome.missing));
          if ('inputRequests' in outcome) {
            const { resultType, ...rest } = outcome;
            return kit.resultOf(id, resultType, rest);
          }
          const answer = kit.service.answer(name, outcome.result);
          return 'result' in answer ? kit.complete(id, answer.result) : kit.callError(id, answer.error);
        },
      };
    },
  });
}

/**
 * The `tools/list` answer of the tools of the service a request's capabilities choose: each page's
 * text made once per process, the 2025 page with what 2026-07-28 adds to a result.
 */
export function toolPages<Request extends { readonly id: Id; readonly params: Record<string, unknown> }>(
  kit: ServingKit,
  serviceOf: (request: Request) => ToolService,
): (request: Request) => WireAnswer {
  const pageSize = kit.options.pageSize ?? 200;
  const pageTexts = new WeakMap<object, string>();
  return (request) => {
    const { id, params } = request;
    const listed = serviceOf(request).page(pageSize, params.cursor);
    if ('error' in listed) return kit.callError(id, listed.error);
    let text = pageTexts.get(listed);
    if (text === undefined) {
      // `{ resultType: 'complete', ...page, ...cache, _meta }` written around the page's own text,
      // which the service made once: the tools are not serialised again.
      const after = JSON.stringify({ ...kit.cache, _meta: kit.resultMeta }).slice(1);
      text = `{"resultType":"complete",${listed.text.slice(1, -1)},${after}`;
      pageTexts.set(listed, text);
    }
    return { status: 200, body: responseText(id, text) };
  };
}
