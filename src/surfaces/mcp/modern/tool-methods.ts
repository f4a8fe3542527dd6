import { askingCall } from '../service/asking-call.js';
import { missingCapabilityError } from '../service/questions.js';
import type { ToolService } from '../service/tool-service.js';
import { toolListOf } from '../service/views.js';
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
  const { service, cache, resultMeta } = kit;

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

  table.set('tools/list', {
    alwaysOurs: true,
    answer: toolPages(kit, (capabilities) => toolListOf(kit.runtime, capabilities)),
  });

  table.set('tools/call', {
    alwaysOurs: true,
    headerMismatch: (params, header) =>
      typeof params.name === 'string'
        ? mirroredMismatch(service.mirrored.get(params.name), params.arguments, header)
        : undefined,
    answer: ({ id, params, meta, capabilities }) => {
      const { name, arguments: args = {} } = params;
      if (typeof name !== 'string')
        return errorAnswer(id, ERRORS.invalidParams, 'tools/call needs a tool name');
      return {
        notifies: meta.progressToken !== undefined || meta[META.logLevel] !== undefined,
        run: async (notify, signal) => {
          const outcome = await askingCall(kit.runtime, kit.states, {
            id,
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
          const answer = service.answer(name, outcome.result);
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
export function toolPages(
  kit: ServingKit,
  serviceFor: (capabilities: Record<string, unknown>) => ToolService,
): (request: {
  readonly id: Id;
  readonly params: Record<string, unknown>;
  readonly capabilities: Record<string, unknown>;
}) => WireAnswer {
  const pageSize = kit.options.pageSize ?? 200;
  const pageTexts = new WeakMap<object, string>();
  return ({ id, params, capabilities }) => {
    const listed = serviceFor(capabilities).page(pageSize, params.cursor);
    if ('error' in listed) return kit.callError(id, listed.error);
    let text = pageTexts.get(listed);
    if (text === undefined) {
      text = JSON.stringify({ resultType: 'complete', ...listed.page, ...kit.cache, _meta: kit.resultMeta });
      pageTexts.set(listed, text);
    }
    return { status: 200, body: responseText(id, text) };
  };
}
