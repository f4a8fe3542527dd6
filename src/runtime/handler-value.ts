import {
  asToolContent,
  content,
  isToolContent,
  type ResultPart,
  type ToolContent,
} from '../contract/results.js';
import { isPlainObject, isRecord } from '../shared/run/is-record.js';

/**
 * A handler's value shaped like the MCP SDK's `CallToolResult` (`{ content, structuredContent,
 * isError, _meta }`) is read as one, never sent as the JSON text of that object (decision 0038):
 * its content and structured content are a result's, and `isError: true` fails the call.
 */

/** The keys of an MCP `CallToolResult` a handler may return. */
const RESULT_KEYS = ['content', 'structuredContent', 'isError', '_meta'];

/** What each MCP content block needs besides its `type`: the string fields. */
const BLOCK_FIELDS: Readonly<Record<ResultPart['type'], readonly string[]>> = {
  text: ['text'],
  image: ['data', 'mimeType'],
  audio: ['data', 'mimeType'],
  resource_link: ['uri', 'name'],
  resource: [],
};

/**
 * A handler's value as the runtime reads it: a plain value or content (`value`), an MCP result
 * with `isError: true` (`reported`, the tool's error), or why a value that claims to be an MCP
 * result is not one (`refused`, naming the field).
 */
export type ReadValue =
  | { readonly value: unknown }
  | { readonly reported: ToolContent }
  | { readonly refused: string };

/**
 * Reads what a handler returned. `dataKeys` gives the top-level keys of the tool's own output
 * schema: where it declares `content`, `structuredContent` or `isError` itself, a value with those
 * keys is that tool's data, as declared, and not an MCP result.
 */
export function readHandlerValue(returned: unknown, dataKeys: () => readonly string[]): ReadValue {
  const value = asToolContent(returned);
  if (isToolContent(value) || !claimsToBeResult(value)) return { value };
  if (dataKeys().some((key) => RESULT_KEYS.includes(key))) return { value };
  const refused = whyNotResult(value);
  if (refused !== undefined) return { refused };
  const {
    content: parts,
    structuredContent,
    isError,
    _meta,
  } = value as {
    content: ResultPart[];
    structuredContent?: unknown;
    isError?: boolean;
    _meta?: Readonly<Record<string, unknown>>;
  };
  const read = content(parts, {
    ...(Object.hasOwn(value, 'structuredContent') ? { structured: structuredContent } : {}),
    ...(_meta === undefined ? {} : { meta: _meta }),
  });
  return isError === true ? { reported: read } : { value: read };
}

/**
 * Whether a value says it is an MCP result: an object literal whose `content` is a list of
 * objects with a `type` (or a list beside `isError` or `structuredContent`), or with `isError: true`
 * whatever else it holds, so that an error is never sent as a success.
 */
function claimsToBeResult(value: unknown): value is Record<string, unknown> {
  if (!isPlainObject(value)) return false;
  if (value.isError === true) return true;
  const { content } = value;
  if (!Array.isArray(content)) return false;
  if (Object.hasOwn(value, 'isError') || Object.hasOwn(value, 'structuredContent')) return true;
  return (
    content.length > 0 && content.every((block) => typeof (block as { type?: unknown })?.type === 'string')
  );
}

/** What makes a value that claims to be an MCP result not one, or undefined when it is one. */
function whyNotResult(value: Record<string, unknown>): string | undefined {
  const stray = Object.keys(value).find((key) => !RESULT_KEYS.includes(key));
  if (stray !== undefined)
    return `"${stray}" is not a key of an MCP CallToolResult (${RESULT_KEYS.join(', ')})`;
  const { content, structuredContent, isError, _meta } = value;
  if (!Array.isArray(content)) return 'content must be a list of MCP content blocks';
  // MCP 2025 takes an object alone: a client of that era would refuse the whole answer.
  if (Object.hasOwn(value, 'structuredContent') && !isRecord(structuredContent))
    return 'structuredContent must be an object';
  if (isError !== undefined && typeof isError !== 'boolean') return 'isError must be true or false';
  if (_meta !== undefined && !isPlainObject(_meta)) return '_meta must be an object';
  for (const [index, block] of content.entries()) {
    const problem = blockProblem(block);
    if (problem !== undefined) return `content[${index}] ${problem}`;
  }
  return undefined;
}

function blockProblem(block: unknown): string | undefined {
  if (!isPlainObject(block)) return 'is not an MCP content block (an object with a type)';
  const { type } = block;
  if (typeof type !== 'string' || !Object.hasOwn(BLOCK_FIELDS, type))
    return `has type ${JSON.stringify(type)}, which MCP does not define (${Object.keys(BLOCK_FIELDS).join(', ')})`;
  const missing = (BLOCK_FIELDS[type as ResultPart['type']] ?? []).filter(
    (field) => typeof block[field] !== 'string',
  );
  if (missing.length > 0) return `(${type}) needs ${missing.join(' and ')} as strings`;
  if (type !== 'resource') return undefined;
  const { resource } = block;
  const embedded =
    isPlainObject(resource) &&
    typeof resource.uri === 'string' &&
    (typeof resource.text === 'string' || typeof resource.blob === 'string');
  return embedded ? undefined : '(resource) needs resource: { uri, text } or { uri, blob }, as strings';
}
