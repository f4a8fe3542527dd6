import { isToolContent, type ResultPart } from '../runtime/index.js';

/**
 * What the model (or the shell) reads of a call's value, rendered once for every surface: a plain
 * value, or content parts with structured content beside them. One walk over the parts; each
 * surface is a row that says how it writes text, and which media its format carries and how.
 * Media a format cannot carry becomes a placeholder that says what was left out, never JSON text
 * with base64 inside. Pure: no SDK (the forms are typed here, and tests hold them to each SDK's
 * own parameter types) and no Node, so that it serves on any runtime.
 */

/** The bytes of a part: an image, audio, or an embedded resource's blob. */
interface Media {
  readonly part: 'image' | 'audio' | 'resource';
  /** Base64. */
  readonly data: string;
  /** As given, in lower case, without parameters: `image/png`. */
  readonly mimeType: string;
  /** The resource's URI, for a resource's blob. */
  readonly uri?: string;
}

/**
 * A surface's row: how it writes text and media, and its form for a result of parts or for a
 * plain value. `media` gives undefined for media its format does not carry.
 */
interface Surface<Part, Form> {
  text(text: string): Part;
  media(media: Media, index: number): Part | undefined;
  parts(parts: Part[]): Form;
  value(value: unknown): Form;
}

/** A plain value as text: a string as it is, anything else as JSON (`null` for nothing). */
const textOf = (value: unknown): string =>
  typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');

/** How many bytes base64 carries. */
const bytesOf = (data: string): number => Math.floor((data.replace(/[^A-Za-z0-9+/]/g, '').length * 3) / 4);

/** `12345` as `12,345`, without Intl (which some runtimes leave out). */
const grouped = (count: number): string => String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

/** What a placeholder or a written file says of media: `image image/png, 12,345 bytes`. */
function describeMedia(media: Media): string {
  const what = media.uri === undefined ? media.part : `${media.part} ${media.uri},`;
  return `${what} ${media.mimeType}, ${grouped(bytesOf(media.data))} bytes`;
}

/** The text that stands for media a surface's format cannot carry. */
const leftOut = (media: Media): string => `[left out: ${describeMedia(media)}]`;

/** A link to a resource, as text: the client reads it, the model sees what and where it is. */
function linkText(part: Extract<ResultPart, { type: 'resource_link' }>): string {
  return `[resource link ${part.title ?? part.name}: ${part.uri}${part.description ? ` — ${part.description}` : ''}]`;
}

/** A file extension for a MIME type: `image/svg+xml` → svg; bytes of no known kind → bin. */
export function extensionOf(mimeType: string): string {
  const subtype = mimeType.split('/')[1]?.split(/[+;]/)[0] ?? '';
  return subtype === 'octet-stream' ? 'bin' : subtype.replace(/[^a-z0-9]/gi, '') || 'bin';
}

/** The last segment of a resource's URI, or a name made from the kind and type: `image.png`. */
function fileNameOf(media: Media): string {
  const last = media.uri?.split(/[/\\]/).pop()?.split(/[?#]/)[0];
  return last || `${media.part}.${extensionOf(media.mimeType)}`;
}

const mimeOf = (mimeType: string | undefined): string =>
  (mimeType ?? 'application/octet-stream').split(';')[0]?.trim().toLowerCase() ?? '';

function partsOf<Part>(surface: Surface<Part, unknown>, content: readonly ResultPart[]): Part[] {
  return content.map((part, index) => {
    let media: Media;
    switch (part.type) {
      case 'text':
        return surface.text(part.text);
      case 'resource_link':
        return surface.text(linkText(part));
      case 'resource': {
        const { resource } = part;
        if ('text' in resource) return surface.text(resource.text);
        media = {
          part: 'resource',
          data: resource.blob,
          mimeType: mimeOf(resource.mimeType),
          uri: resource.uri,
        };
        break;
      }
      default:
        media = { part: part.type, data: part.data, mimeType: mimeOf(part.mimeType) };
    }
    return surface.media(media, index) ?? surface.text(leftOut(media));
  });
}

/**
 * The one walk for what a model reads: a plain value as the row takes it, or the parts; a result
 * with structured content and no parts is read as its JSON text.
 */
function render<Part, Form>(surface: Surface<Part, Form>, value: unknown): Form {
  if (!isToolContent(value)) return surface.value(value);
  const parts = partsOf(surface, value.content);
  if (parts.length === 0 && value.structured !== undefined)
    parts.push(surface.text(textOf(value.structured)));
  return surface.parts(parts);
}

/** Text parts alone are one string (the form every provider took before parts); else the parts. */
function textOrParts<Part>(parts: Part[], textIn: (part: Part) => string | undefined): string | Part[] {
  const texts = parts.map(textIn);
  return texts.every((text) => text !== undefined) ? texts.join('\n') : parts;
}

// ——— MCP ———

/** The `content`, `structuredContent` and `_meta` of an MCP `CallToolResult`. */
export interface McpToolResult {
  content: ResultPart[];
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

/**
 * A call's value as MCP carries it: content parts as they are (they are MCP's own blocks) with
 * structured content and `_meta` beside them; a plain value as text, and as structured content
 * too where the tool declares an output. A handler's MCP-shaped result was read as content by the
 * runtime (runtime/handler-value.ts), so it arrives here as parts, never as the JSON of an object.
 */
export function renderMcpResult(value: unknown, declaresOutput: boolean): McpToolResult {
  if (isToolContent(value)) {
    const { content, structured, meta } = value;
    return {
      content: [...content],
      ...(structured === undefined ? {} : { structuredContent: structured as Record<string, unknown> }),
      ...(meta === undefined ? {} : { _meta: { ...meta } }),
    };
  }
  const content: ResultPart[] = [{ type: 'text', text: textOf(value) }];
  return declaresOutput ? { content, structuredContent: value as Record<string, unknown> } : { content };
}

// ——— AI SDK ———

export type JsonValue =
  | null
  | string
  | number
  | boolean
  | JsonValue[]
  | { [key: string]: JsonValue | undefined };

export type AiContentPart =
  | { type: 'text'; text: string }
  | { type: 'image-data'; data: string; mediaType: string }
  | { type: 'file-data'; data: string; mediaType: string; filename?: string };

/** The AI SDK's tool output (`toModelOutput`): it takes every medium, and its provider decides. */
export type AiToolOutput =
  | { type: 'text'; value: string }
  | { type: 'json'; value: JsonValue }
  | { type: 'content'; value: AiContentPart[] };

const AI: Surface<AiContentPart, AiToolOutput> = {
  text: (text) => ({ type: 'text', text }),
  media: (media) =>
    media.part === 'image'
      ? { type: 'image-data', data: media.data, mediaType: media.mimeType }
      : {
          type: 'file-data',
          data: media.data,
          mediaType: media.mimeType,
          ...(media.uri === undefined ? {} : { filename: fileNameOf(media) }),
        },
  parts: (value) => ({ type: 'content', value }),
  // As the AI SDK shows a value by default: text as it is, anything else as JSON.
  value: (value) =>
    typeof value === 'string'
      ? { type: 'text', value }
      : { type: 'json', value: (value ?? null) as JsonValue },
};

export const renderAiOutput = (value: unknown): AiToolOutput => render(AI, value);

// ——— OpenAI ———

/** Chat Completions: a `tool` message's `content` carries text only. */
const CHAT: Surface<string, string> = {
  text: (text) => text,
  media: () => undefined,
  parts: (parts) => parts.join('\n'),
  value: textOf,
};

export const renderChatContent = (value: unknown): string => render(CHAT, value);

/** The image types OpenAI and Anthropic take (base64, in a data URL for OpenAI). */
const WEB_IMAGES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const PDF = 'application/pdf';
const dataUrl = ({ mimeType, data }: Media): string => `data:${mimeType};base64,${data}`;

/** An item of a Responses `function_call_output`'s `output`. */
export type ResponsesOutputPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string }
  | { type: 'input_file'; file_data: string; filename: string };

const RESPONSES: Surface<ResponsesOutputPart, string | ResponsesOutputPart[]> = {
  text: (text) => ({ type: 'input_text', text }),
  media: (media) =>
    WEB_IMAGES.has(media.mimeType)
      ? { type: 'input_image', image_url: dataUrl(media) }
      : media.mimeType === PDF
        ? { type: 'input_file', file_data: dataUrl(media), filename: fileNameOf(media) }
        : undefined,
  parts: (parts) => textOrParts(parts, (part) => (part.type === 'input_text' ? part.text : undefined)),
  value: textOf,
};

export const renderResponsesOutput = (value: unknown): string | ResponsesOutputPart[] =>
  render(RESPONSES, value);

/** What an `@openai/agents` function tool returns: it sends these as the Responses parts above. */
export type AgentsOutputPart =
  | { type: 'text'; text: string }
  | { type: 'image'; image: { data: string; mediaType: string } }
  | { type: 'file'; file: { data: string; mediaType: string; filename: string } };

const AGENTS: Surface<AgentsOutputPart, string | AgentsOutputPart[]> = {
  text: (text) => ({ type: 'text', text }),
  media: (media) =>
    WEB_IMAGES.has(media.mimeType)
      ? { type: 'image', image: { data: media.data, mediaType: media.mimeType } }
      : media.mimeType === PDF
        ? { type: 'file', file: { data: media.data, mediaType: PDF, filename: fileNameOf(media) } }
        : undefined,
  parts: (parts) => textOrParts(parts, (part) => (part.type === 'text' ? part.text : undefined)),
  value: textOf,
};

export const renderAgentsOutput = (value: unknown): string | AgentsOutputPart[] => render(AGENTS, value);

// ——— Anthropic ———

export type AnthropicImageType = 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';

/** A block of a `tool_result`'s `content`: text, an image, or a PDF document. */
export type AnthropicResultBlock =
  | { type: 'text'; text: string }
  | { type: 'image'; source: { type: 'base64'; media_type: AnthropicImageType; data: string } }
  | { type: 'document'; source: { type: 'base64'; media_type: 'application/pdf'; data: string } };

const ANTHROPIC: Surface<AnthropicResultBlock, string | AnthropicResultBlock[]> = {
  text: (text) => ({ type: 'text', text }),
  media: ({ mimeType, data }) =>
    WEB_IMAGES.has(mimeType)
      ? { type: 'image', source: { type: 'base64', media_type: mimeType as AnthropicImageType, data } }
      : mimeType === PDF
        ? { type: 'document', source: { type: 'base64', media_type: PDF, data } }
        : undefined,
  parts: (parts) => textOrParts(parts, (part) => (part.type === 'text' ? part.text : undefined)),
  value: textOf,
};

export const renderAnthropicContent = (value: unknown): string | AnthropicResultBlock[] =>
  render(ANTHROPIC, value);

// ——— Gemini ———

/**
 * What Gemini takes in a function response's `parts` (multimodal function responses): images and
 * PDF documents. Text goes in the response, not as bytes.
 */
const GEMINI_MEDIA = new Set(['image/png', 'image/jpeg', 'image/webp', PDF]);

export interface GeminiResponsePart {
  inlineData: { mimeType: string; data: string };
}

/** A `functionResponse`'s `response` (the text, as `output`) and its `parts` (the media). */
export interface GeminiFunctionResult {
  response: { output: string };
  parts?: GeminiResponsePart[];
}

type GeminiPart = { text: string } | GeminiResponsePart;

const GEMINI: Surface<GeminiPart, GeminiFunctionResult> = {
  text: (text) => ({ text }),
  media: ({ mimeType, data }) =>
    GEMINI_MEDIA.has(mimeType) ? { inlineData: { mimeType, data } } : undefined,
  parts: (parts) => {
    const media = parts.filter((part): part is GeminiResponsePart => 'inlineData' in part);
    const output = parts.flatMap((part) => ('text' in part ? [part.text] : [])).join('\n');
    return { response: { output }, ...(media.length > 0 ? { parts: media } : {}) };
  },
  value: (value) => ({ response: { output: textOf(value) } }),
};

export const renderGeminiResult = (value: unknown): GeminiFunctionResult => render(GEMINI, value);

// ——— the shell CLI ———

/** Writes a part's media where a person can open it, and says where; by default, a placeholder. */
export type MediaWriter = (media: Media, index: number) => string;

/**
 * A result as the shell prints it, one string a line: text as it is, media through `write`,
 * structured content (always, after the parts) and a plain value as indented JSON.
 */
export function renderCliLines(
  value: unknown,
  write: MediaWriter = (media) => `[${describeMedia(media)}]`,
): string[] {
  if (!isToolContent(value))
    return [typeof value === 'string' ? value : (JSON.stringify(value, null, 2) ?? '')];
  const lines = partsOf<string>(
    { text: (text) => text, media: write, parts: (parts) => parts, value: String },
    value.content,
  );
  if (value.structured !== undefined) lines.push(JSON.stringify(value.structured, null, 2));
  return lines;
}
