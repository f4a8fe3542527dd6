import type { ToolRuntime } from '../../../runtime/call-types.js';
import { invalidCursor } from '../service/tool-service.js';
import {
  UI_EXTENSION,
  unknownResource,
  VIEW_MIME_TYPE,
  VIEW_READ_TTL_MS,
  viewServiceOf,
} from '../service/views.js';
import { ERRORS, errorAnswer, responseText } from '../wire/jsonrpc.js';
import type { MethodTable, ServingKit } from './method-table.js';

/**
 * The views (MCP Apps) as rows of the method table, for a runtime built with views:
 * `resources/list` (the current versions, one page, its text made once) and `resources/read` (any
 * version kept, with its digest as the HTTP `ETag`, kept by the client for `VIEW_READ_TTL_MS`: the
 * answer at a URI never changes). A feature server of the user's
 * (`modernFeatures`) answers resources instead, with the views attached to it (`attachTools`), so
 * that its own resources are listed beside them. Which tools list a client gets is the tool rows'
 * choice (service/views.ts). A runtime without views installs nothing.
 */
export function installViewMethods(table: MethodTable, kit: ServingKit): void {
  if (!viewServiceOf(kit.runtime)) return;
  kit.capabilities.resources = {};
  kit.capabilities.extensions = {
    ...(kit.capabilities.extensions as Record<string, unknown> | undefined),
    [UI_EXTENSION]: { mimeTypes: [VIEW_MIME_TYPE] },
  };
  // Per the caller's view (its tools' views only, under `auth`): each list's text made once.
  const listTexts = new WeakMap<ToolRuntime, string>();
  const readTexts = new Map<string, string>();

  table.set('resources/list', {
    answer: ({ id, params, view }) => {
      // One page holds every view: a cursor is one this server never gave.
      if (params.cursor !== undefined) return kit.callError(id, invalidCursor(params.cursor));
      let listText = listTexts.get(view);
      if (listText === undefined) {
        listText = JSON.stringify({
          resultType: 'complete',
          resources: viewServiceOf(view)?.listed ?? [],
          ...kit.cache,
          _meta: kit.resultMeta,
        });
        listTexts.set(view, listText);
      }
      return { status: 200, body: responseText(id, listText) };
    },
  });

  table.set('resources/read', {
    answer: ({ id, params, view }) => {
      const { uri } = params;
      if (typeof uri !== 'string')
        return errorAnswer(id, ERRORS.invalidParams, 'resources/read needs the uri of a resource');
      const read = viewServiceOf(view)?.read(uri);
      if (!read) return kit.callError(id, unknownResource(uri, '2026-07-28'));
      return {
        notifies: false,
        run: async () => {
          const { result, etag } = await read;
          let text = readTexts.get(uri);
          if (text === undefined) {
            text = JSON.stringify({
              resultType: 'complete',
              ...result,
              ...kit.cache,
              ttlMs: VIEW_READ_TTL_MS,
              _meta: kit.resultMeta,
            });
            readTexts.set(uri, text);
          }
          return { status: 200, body: responseText(id, text), headers: { etag } };
        },
      };
    },
  });
}
