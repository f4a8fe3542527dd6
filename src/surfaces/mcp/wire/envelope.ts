import type { McpHeader } from '../../../manifest/prepared-tool.js';
import { isRecord } from '../../../shared/run/is-record.js';

/**
 * The 2026-07-28 envelope: the `_meta` keys every request carries, what makes a message of that
 * era, and the HTTP headers that mirror the body (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`). Pure:
 * no SDK, no Node.
 */

export const MODERN_VERSION = '2026-07-28';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The progressive-disclosure groups draft: its extension id, also the `_meta` key of a tool's groups. */
export const GROUPS_EXTENSION = 'io.modelcontextprotocol/groups';

export const META = {
  protocolVersion: 'io.modelcontextprotocol/protocolVersion',
  clientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  logLevel: 'io.modelcontextprotocol/logLevel',
  serverInfo: 'io.modelcontextprotocol/serverInfo',
  subscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

/** A header of the request, by lower-case name (HTTP); undefined over stdio. */
export type HeaderReader = ((name: string) => string | undefined) | undefined;

/**
 * Whether a message is of the 2026-07-28 era: it carries the per-request protocol version, asks
 * for `server/discover`, or comes with a 2026 `MCP-Protocol-Version` header. Everything else is
 * a 2025 session's.
 */
export function isModernMessage(message: unknown, headerVersion?: string): boolean {
  if (headerVersion !== undefined && headerVersion >= MODERN_VERSION) return true;
  if (!isRecord(message)) return false;
  if (message.method === 'server/discover') return true;
  const meta = isRecord(message.params) ? message.params._meta : undefined;
  return isRecord(meta) && META.protocolVersion in meta;
}

/** What the client declared it can do, from a checked envelope's `_meta`. */
export function capabilitiesOf(meta: Record<string, unknown>): Record<string, unknown> {
  return meta[META.clientCapabilities] as Record<string, unknown>;
}

/** Whether the request's capabilities declare this extension. */
export function declaresExtension(meta: Record<string, unknown>, extension: string): boolean {
  const { extensions } = capabilitiesOf(meta);
  return isRecord(extensions) && isRecord(extensions[extension]);
}

/**
 * The param each method's `Mcp-Name` header mirrors, for every method that has one, whether this
 * server answers it or not: a header that disagrees is refused before the method is looked up.
 */
const NAME_PARAMS: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

/** Where the `Mcp-Method` and `Mcp-Name` headers disagree with the body, or undefined. */
export function headerMismatch(
  method: string,
  params: Record<string, unknown>,
  header: (name: string) => string | undefined,
): string | undefined {
  const sentMethod = header('mcp-method')?.trim();
  if (sentMethod !== method)
    return sentMethod === undefined
      ? 'the Mcp-Method header is missing'
      : `Mcp-Method "${sentMethod}" is not the body's "${method}"`;
  const nameParam = Object.hasOwn(NAME_PARAMS, method) ? NAME_PARAMS[method] : undefined;
  const named = nameParam === undefined ? undefined : params[nameParam];
  if (named === undefined) return undefined;
  const sentName = header('mcp-name');
  if (sentName === undefined) return 'the Mcp-Name header is missing';
  const decoded = decodeHeaderValue(sentName.trim());
  if (decoded === undefined) return 'Mcp-Name is not valid base64 inside =?base64?…?=';
  return decoded === named ? undefined : `Mcp-Name "${decoded}" is not the body's "${String(named)}"`;
}

/**
 * Where the `Mcp-Param-*` headers disagree with the arguments they mirror, or undefined: each
 * argument present (and not null) must come with its header, equal once decoded (an integer by
 * value), and an absent one with none.
 */
export function mirroredMismatch(
  headers: readonly McpHeader[] | undefined,
  args: unknown,
  header: (name: string) => string | undefined,
): string | undefined {
  for (const { path, header: name, type } of headers ?? []) {
    let value: unknown = args;
    for (const step of path) value = isRecord(value) && Object.hasOwn(value, step) ? value[step] : undefined;
    const sent = header(`mcp-param-${name.toLowerCase()}`);
    if (value === undefined || value === null) {
      if (sent !== undefined) return `Mcp-Param-${name} is sent, but ${path.join('.')} is not`;
      continue;
    }
    if (sent === undefined) return `the Mcp-Param-${name} header is missing for ${path.join('.')}`;
    const decoded = decodeHeaderValue(sent.trim());
    if (decoded === undefined) return `Mcp-Param-${name} is not valid base64 inside =?base64?…?=`;
    const equal =
      type === 'integer'
        ? decoded.trim() !== '' && Number(decoded) === Number(value)
        : decoded === String(value);
    if (!equal) return `Mcp-Param-${name} "${decoded}" is not the body's ${JSON.stringify(value)}`;
  }
  return undefined;
}

/** A header value as sent: plain, or `=?base64?…?=` for what plain ASCII cannot carry. */
function decodeHeaderValue(value: string): string | undefined {
  if (!value.startsWith('=?base64?') || !value.endsWith('?=') || value.length < 11) return value;
  const encoded = value.slice(9, -2);
  // Strict: atob forgives missing padding, which the specification refuses.
  if (encoded.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(encoded)) return undefined;
  try {
    const binary = atob(encoded);
    return new TextDecoder('utf-8', { fatal: true }).decode(
      Uint8Array.from(binary, (character) => character.charCodeAt(0)),
    );
  } catch {
    return undefined;
  }
}
