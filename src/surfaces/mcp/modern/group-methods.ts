import { groupCatalogOf } from '../service/groups.js';
import { invalidCursor, toolServiceOf } from '../service/tool-service.js';
import { declaresExtension, GROUPS_EXTENSION } from '../wire/envelope.js';
import { ERRORS, errorAnswer, type Id, responseText, type WireAnswer } from '../wire/jsonrpc.js';
import {
  type MethodRow,
  type MethodTable,
  missingCapabilityAnswer,
  type ServingKit,
} from './method-table.js';
import { toolPages } from './tool-methods.js';

/**
 * The progressive-disclosure working group's groups draft (`io.modelcontextprotocol/groups`) as
 * rows of the method table, for a runtime whose groups have deferred tools: `groups/list` and
 * `groups/get`, and a `tools/list` that leaves the scoped (deferred) tools out for a client that
 * declared the extension in this request's capabilities. A client that declared nothing gets every
 * tool, as before. Each answer's JSON text is made once per process; only the id is spliced in.
 */
export function installGroupMethods(table: MethodTable, kit: ServingKit): void {
  const catalog = groupCatalogOf(kit.runtime);
  if (!catalog || catalog.offered.length === 0) return;
  kit.capabilities.extensions = {
    ...(kit.capabilities.extensions as Record<string, unknown> | undefined),
    [GROUPS_EXTENSION]: {},
  };
  const { cache, resultMeta } = kit;

  const missingGroups = (id: Id, method: string): WireAnswer =>
    missingCapabilityAnswer(id, {
      code: ERRORS.missingCapability.code,
      message: `Missing required client capability: ${method} is a method of the groups extension`,
      data: { requiredCapabilities: { extensions: { [GROUPS_EXTENSION]: {} } } },
    });

  const flat = table.get('tools/list') as MethodRow;
  const topLevel = toolPages(kit, toolServiceOf(catalog.topLevel));
  table.set('tools/list', {
    ...flat,
    answer: (request) =>
      declaresExtension(request.meta, GROUPS_EXTENSION) ? topLevel(request) : flat.answer(request),
  });

  let listText: string | undefined;
  table.set('groups/list', {
    alwaysOurs: true,
    answer: ({ id, params, meta }) => {
      if (!declaresExtension(meta, GROUPS_EXTENSION)) return missingGroups(id, 'groups/list');
      // One page holds every group: a cursor is one this server never gave.
      if (params.cursor !== undefined) return kit.callError(id, invalidCursor(params.cursor));
      listText ??= JSON.stringify({
        resultType: 'complete',
        groups: catalog.offered.map(({ name, description }) => ({ name, description })),
        ...cache,
        _meta: resultMeta,
      });
      return { status: 200, body: responseText(id, listText) };
    },
  });

  const getTexts = new Map<string, string>();
  const offered = new Map(catalog.offered.map((group) => [group.name, group]));
  table.set('groups/get', {
    alwaysOurs: true,
    answer: ({ id, params, meta }) => {
      if (!declaresExtension(meta, GROUPS_EXTENSION)) return missingGroups(id, 'groups/get');
      const { name } = params;
      if (typeof name !== 'string')
        return errorAnswer(id, ERRORS.invalidParams, 'groups/get needs the name of a group');
      const group = offered.get(name);
      if (!group)
        return errorAnswer(
          id,
          ERRORS.notFound,
          `Unknown group "${name}". Groups: ${[...offered.keys()].join(', ')}.`,
        );
      let text = getTexts.get(name);
      if (text === undefined) {
        // The group's scoped tools on one page, as tools/list writes each tool.
        const scoped = toolServiceOf(catalog.scopedView(group)).page(group.scoped.length, undefined);
        if ('error' in scoped) return kit.callError(id, scoped.error);
        const contents = { tools: scoped.page.tools };
        text = JSON.stringify({ resultType: 'complete', contents, ...cache, _meta: resultMeta });
        getTexts.set(name, text);
      }
      return { status: 200, body: responseText(id, text) };
    },
  });
}
