/**
 * What a handler may return besides a plain value: content parts as MCP defines them (text, an
 * image, audio, a link to a resource, a resource itself), with structured content beside them.
 * Each surface maps them: MCP sends them as they are, the AI SDK as its tool output (media
 * included), the shell CLI prints text and writes media to files.
 */

export type ResultPart =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'image'; readonly data: string; readonly mimeType: string }
  | { readonly type: 'audio'; readonly data: string; readonly mimeType: string }
  | {
      readonly type: 'resource_link';
      readonly uri: string;
      readonly name: string;
      readonly title?: string;
      readonly description?: string;
      readonly mimeType?: string;
    }
  | {
      readonly type: 'resource';
      readonly resource:
        | { readonly uri: string; readonly mimeType?: string; readonly text: string }
        | { readonly uri: string; readonly mimeType?: string; readonly blob: string };
    };

const CONTENT = Symbol.for('toolprep.content');
const PART = Symbol.for('toolprep.part');

/** A handler's result made of content parts, and structured content when the tool declares one. */
export interface ToolContent {
  readonly [CONTENT]: true;
  readonly content: readonly ResultPart[];
  /** What the contract's `output` describes: parsed by it before it is sent. */
  readonly structured?: unknown;
  /** Sent as the MCP result's `_meta` (other surfaces have no place for it). */
  readonly meta?: Readonly<Record<string, unknown>>;
}

/** A result of content parts with the structured content a contract's `output` parses. */
export type StructuredContent<Structured> = ToolContent & { readonly structured: Structured };

export function isToolContent(value: unknown): value is ToolContent {
  return typeof value === 'object' && value !== null && CONTENT in value;
}

/**
 * A handler's result as content when it is content: one part made by the helpers below, returned
 * alone (`return image(png, 'image/png')`), is a result of that one part, not a value to send as JSON.
 */
export function asToolContent(value: unknown): unknown {
  return isResultPart(value) ? content([value]) : value;
}

function isResultPart(value: unknown): value is ResultPart {
  return typeof value === 'object' && value !== null && PART in value;
}

/** Marks a part made here, so that a handler may return it alone (not enumerable: not sent). */
function part<Part extends ResultPart>(value: Part): Part {
  return Object.defineProperty(value, PART, { value: true });
}

/**
 * Bytes as base64, which every protocol carries media in; a string is taken as base64 already.
 * `btoa`, not Buffer: edge runtimes have the one and not the other.
 */
function base64(data: Uint8Array | string): string {
  if (typeof data === 'string') return data;
  let binary = '';
  for (let at = 0; at < data.length; at += 0x8000)
    binary += String.fromCharCode(...data.subarray(at, at + 0x8000));
  return btoa(binary);
}

export const text = (value: string): ResultPart => part({ type: 'text', text: value });

export const image = (data: Uint8Array | string, mimeType: string): ResultPart =>
  part({ type: 'image', data: base64(data), mimeType });

export const audio = (data: Uint8Array | string, mimeType: string): ResultPart =>
  part({ type: 'audio', data: base64(data), mimeType });

/** A link to a resource the client may read: not its content. */
export const resourceLink = (
  link: Omit<Extract<ResultPart, { type: 'resource_link' }>, 'type'>,
): ResultPart => part({ type: 'resource_link', ...link });

/** A resource embedded in the result: its text, or its bytes. */
export const resource = (
  value: { readonly uri: string; readonly mimeType?: string } & (
    | { readonly text: string }
    | { readonly data: Uint8Array | string }
  ),
): ResultPart => {
  const { uri, mimeType } = value;
  const at = { uri, ...(mimeType === undefined ? {} : { mimeType }) };
  return part({
    type: 'resource',
    resource: 'text' in value ? { ...at, text: value.text } : { ...at, blob: base64(value.data) },
  });
};

type ContentOptions = { readonly meta?: Readonly<Record<string, unknown>> };

/**
 * A result of several parts (a string is a text part), with `structured` content when the
 * contract declares an `output`: `return content(['Chart of May', image(png, 'image/png')])`.
 * `meta` is sent as the MCP result's `_meta`.
 */
export function content<Structured>(
  parts: readonly (ResultPart | string)[],
  options: ContentOptions & { readonly structured: Structured },
): StructuredContent<Structured>;
export function content(
  parts: readonly (ResultPart | string)[],
  options?: ContentOptions & { readonly structured?: unknown },
): ToolContent;
export function content(
  parts: readonly (ResultPart | string)[],
  options: ContentOptions & { readonly structured?: unknown } = {},
): ToolContent {
  return {
    [CONTENT]: true,
    content: parts.map((part) => (typeof part === 'string' ? text(part) : part)),
    ...('structured' in options ? { structured: options.structured } : {}),
    ...(options.meta === undefined ? {} : { meta: options.meta }),
  };
}
