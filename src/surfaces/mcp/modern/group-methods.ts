import type { ToolRuntime } from '../../../runtime/runner.js';
import { scopesTools } from '../service/groups.js';
import { invalidCursor } from '../service/tool-service.js';
import { declaresExtension, GROUPS_EXTENSION } from '../wire/envelope.js';
import { ERRORS, errorAnswer, type Id, type WireAnswer } from '../wire/jsonrpc.js';
import type { GroupWork } from './group-work.js';
import {
  type MethodRow,
  type MethodTable,
  missingCapabilityAnswer,
  type ServingKit,
} from './method-table.js';

/**
 * The progressive-disclosure working group's groups draft (`io.modelcontextprotocol/groups`) as
 * rows of the method table, for a runtime some of whose groups have deferred tools: `groups/list`
 * and `groups/get`, and a `tools/list` that leaves the scoped (deferred) tools out for a client
 * that declared the extension in this request's capabilities. A client that declared nothing gets
 * every tool, as before. Each answer is of the request's view: with `auth`, the caller's tools
 * only; for a client that renders no view, without the app-only tools (decision 0073). A request
 * is checked here, at once; its answer is group-work.ts's, which loads as the serving starts. A runtime without such groups installs nothing and loads nothing.
 */
export function installGroupMethods(table: MethodTable, kit: ServingKit): void {
  if (!scopesTools(kit.runtime)) return;
  const works: Promise<(view: ToolRuntime, capabilities: Record<string, unknown>) => GroupWork> = import(
    './group-work.js'
  ).then(({ groupWorkOf }) => groupWorkOf(kit));
  kit.capabilities.extensions = {
    ...(kit.capabilities.extensions as Record<string, unknown> | undefined),
    [GROUPS_EXTENSION]: {},
  };

  const missingGroups = (id: Id, method: string): WireAnswer =>
    missingCapabilityAnswer(id, {
      code: ERRORS.missingCapability.code,
      message: `Missing required client capability: ${method} is a method of the groups extension`,
      data: { requiredCapabilities: { extensions: { [GROUPS_EXTENSION]: {} } } },
    });

  const flat = table.get('tools/list') as MethodRow;
  table.set('tools/list', {
    ...flat,
    answer: (request) =>
      declaresExtension(request.meta, GROUPS_EXTENSION)
        ? {
            notifies: false,
            run: async () => (await works)(request.view, request.capabilities).topLevel(request),
          }
        : flat.answer(request),
  });

  table.set('groups/list', {
    alwaysOurs: true,
    answer: ({ id, params, meta, view, capabilities }) => {
      if (!declaresExtension(meta, GROUPS_EXTENSION)) return missingGroups(id, 'groups/list');
      // One page holds every group: a cursor is one this server never gave.
      if (params.cursor !== undefined) return kit.callError(id, invalidCursor(params.cursor));
      return { notifies: false, run: async () => (await works)(view, capabilities).list(id) };
    },
  });

  table.set('groups/get', {
    alwaysOurs: true,
    answer: ({ id, params, meta, view, capabilities }) => {
      if (!declaresExtension(meta, GROUPS_EXTENSION)) return missingGroups(id, 'groups/get');
      const { name } = params;
      if (typeof name !== 'string')
        return errorAnswer(id, ERRORS.invalidParams, 'groups/get needs the name of a group');
      return {
        notifies: false,
        run: async () => (await works)(view, capabilities).get(id, name, capabilities),
      };
    },
  });
}
