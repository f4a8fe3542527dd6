import { type PreparedView, VIEW_MIME_TYPE } from '../../../manifest/tool-set.js';
import { runtimeFor, type ToolRuntime } from '../../../runtime/runner.js';
import { isRecord } from '../../../shared/run/is-record.js';
import { ERRORS, type WireError } from '../wire/jsonrpc.js';
import { type ToolService, toolServiceOf } from './tool-service.js';

/**
 * The views (MCP Apps, `io.modelcontextprotocol/ui`) as every era and binding serves them: the
 * `resources/list` entries of the current versions, the `resources/read` answer of every version
 * the build kept (an older one is readable, not listed), and which `tools/list` a client gets. Each
 * entry and content carries the same `_meta.ui` (CSP, permissions, border), since hosts read one or
 * the other. Pure: no SDK, no Node.
 */

export const UI_EXTENSION = 'io.modelcontextprotocol/ui';

// For the bindings, which read the manifest through this service only.
export { VIEW_MIME_TYPE };

/**
 * Whether a client renders views: it declared the extension (and, if it lists mime types, ours).
 * Capabilities not known (a stateless 2025 request, which brings none) count as rendering: a host
 * that renders nothing ignores `_meta.ui`, and one that does would otherwise never see a view.
 */
function rendersViews(capabilities: Readonly<Record<string, unknown>> | undefined): boolean {
  if (capabilities === undefined) return true;
  const { extensions } = capabilities;
  const ui = isRecord(extensions) ? extensions[UI_EXTENSION] : undefined;
  if (!isRecord(ui)) return false;
  return !Array.isArray(ui.mimeTypes) || ui.mimeTypes.includes(VIEW_MIME_TYPE);
}

/**
 * The tools list a client is answered with, chosen from what its request (2026-07-28) or its
 * session (2025) declared: the one place that choice is made.
 */
export function toolListOf(
  runtime: ToolRuntime,
  capabilities: Readonly<Record<string, unknown>> | undefined,
): ToolService {
  return toolServiceOf(runtime, rendersViews(capabilities) ? 'linked' : 'plain');
}

const modelRuntimes = new WeakMap<ToolRuntime, ToolRuntime>();

/**
 * The runtime a client's calls go through, chosen as its tools list is: a client that renders no
 * view was not listed the app-only tools (only its model could call them), so it calls them as
 * tools it does not have; a client that renders views calls them for its view (decision 0062).
 */
export function callingRuntimeOf(
  runtime: ToolRuntime,
  capabilities: Readonly<Record<string, unknown>> | undefined,
): ToolRuntime {
  if (rendersViews(capabilities)) return runtime;
  let forModel = modelRuntimes.get(runtime);
  if (!forModel) {
    forModel = runtimeFor(runtime, { model: true });
    modelRuntimes.set(runtime, forModel);
  }
  return forModel;
}

/** A view as `resources/list` lists it. */
interface ListedView {
  readonly uri: string;
  readonly name: string;
  readonly mimeType: typeof VIEW_MIME_TYPE;
  readonly size: number;
  readonly _meta: { readonly ui: Readonly<Record<string, unknown>> };
}

/** What `resources/read` answers for a view: its contents, and the ETag HTTP may carry. */
export interface ReadView {
  readonly result: {
    readonly contents: readonly [
      {
        readonly uri: string;
        readonly mimeType: typeof VIEW_MIME_TYPE;
        readonly text: string;
        readonly _meta: Readonly<Record<string, unknown>>;
      },
    ];
  };
  /** The view's digest as an HTTP entity tag (quoted). */
  readonly etag: string;
}

export interface ViewService {
  /** The current version of each view, as `resources/list` lists it. */
  readonly listed: readonly ListedView[];
  /**
   * The URI template of each view's older versions the build kept, by view name: its URI with the
   * digest as the variable (`ui://chart/{digest}.html`), for a server that reads by template.
   */
  readonly earlier: ReadonlyMap<string, string>;
  /** A view's answer, its HTML imported on the first read; undefined for a URI that is no view's. */
  read(uri: string): Promise<ReadView> | undefined;
}

const services = new WeakMap<ToolRuntime, ViewService | undefined>();

/** The views of a runtime, made once per runtime; undefined when it has none. */
export function viewServiceOf(runtime: ToolRuntime): ViewService | undefined {
  if (!services.has(runtime))
    services.set(runtime, runtime.views?.length ? viewService(runtime.views) : undefined);
  return services.get(runtime);
}

function viewService(views: readonly PreparedView[]): ViewService {
  const byUri = new Map(views.map((view) => [view.uri, view]));
  const reads = new Map<string, Promise<ReadView>>();
  const listed = Object.freeze(
    views
      .filter((view) => view.current)
      .map(
        (view): ListedView => ({
          uri: view.uri,
          name: view.name,
          mimeType: VIEW_MIME_TYPE,
          size: view.bytes,
          _meta: { ui: uiMeta(view) },
        }),
      ),
  );
  return {
    listed,
    earlier: new Map(
      views
        .filter((view) => !view.current)
        .map((view) => [view.name, view.uri.replace(view.digest, '{digest}')]),
    ),
    read(uri) {
      const view = byUri.get(uri);
      if (!view) return undefined;
      let read = reads.get(uri);
      if (!read) {
        read = view.html().then((text) => ({
          result: {
            contents: [
              { uri, mimeType: VIEW_MIME_TYPE, text, _meta: { ui: uiMeta(view), etag: view.digest } },
            ],
          },
          etag: `"${view.digest}"`,
        }));
        // A failed import is tried again by the next read, not kept.
        read.catch(() => reads.delete(uri));
        reads.set(uri, read);
      }
      return read;
    },
  };
}

/** MCP Apps' `_meta.ui` of a view's resource: what the host applies to the iframe. */
function uiMeta(view: PreparedView): Readonly<Record<string, unknown>> {
  return {
    csp: view.csp,
    ...(view.permissions ? { permissions: view.permissions } : {}),
    ...(view.prefersBorder === undefined ? {} : { prefersBorder: view.prefersBorder }),
  };
}

/**
 * The refusal of a URI no resource has, as each era says it: -32602 (invalid params) on
 * 2026-07-28, which SEP-2164 made the code of a missing resource; -32002 on 2025. The URI is in
 * `data` on both.
 */
export function unknownResource(uri: unknown, era: '2026-07-28' | '2025'): WireError {
  const code = era === '2025' ? ERRORS.notFound.code : ERRORS.invalidArgument.code;
  return { code, message: `Resource not found: ${JSON.stringify(uri)}`, data: { uri } };
}

/**
 * How long a client may keep a view's `resources/read` answer (2026-07-28's `ttlMs`): a year, as
 * HTTP's `immutable` assets are kept. The answer at a URI never changes (the URI carries the
 * digest of the HTML and its `_meta.ui`), so a client that keeps it never needs to ask again; the
 * protocol has no conditional read to ask more cheaply (decision 0062).
 */
export const VIEW_READ_TTL_MS = 31_536_000_000;
