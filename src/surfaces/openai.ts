import type { ToolRuntime } from '../runtime/runner.js';
import type { JsonSchema } from '../shared/json-schema/schema.js';
import {
  callThroughProfile,
  type ProfileTool,
  profileTools,
  responsesLayout,
  searchToolBeside,
  sentDeferred,
} from './profile-call.js';
import { type ResponsesOutputPart, renderChatContent, renderResponsesOutput } from './tool-content.js';

/** A function tool for Chat Completions (`tools` of `chat.completions.create`). */
export interface ChatCompletionsTool {
  readonly type: 'function';
  readonly function: {
    readonly name: string;
    readonly description: string;
    readonly parameters: JsonSchema;
    /** `false` for a tool that falls back from `openai-strict` (its MCP document). */
    readonly strict: boolean;
  };
}

/** A function tool for the Responses API (`tools` of `responses.create`). */
export interface ResponsesTool {
  readonly type: 'function';
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  /** `false` for a tool that falls back from `openai-strict` (its MCP document). */
  readonly strict: boolean;
  /** Set on a tool the build deferred: only its name and description are shown until tool search loads it. */
  readonly defer_loading?: true;
}

/** A group's deferred functions under its name (a Responses `namespace`), shown by name and description only. */
export interface ResponsesNamespace {
  readonly type: 'namespace';
  readonly name: string;
  readonly description: string;
  readonly tools: ResponsesTool[];
}

/** The Responses API's hosted tool search, which loads deferred functions and namespaces. */
export interface ResponsesToolSearch {
  readonly type: 'tool_search';
}

export interface ResponsesToolsOptions {
  /**
   * `false`: every tool sent whole, and no tool search. Default: the tools the build deferred are
   * sent with `defer_loading: true`, in a namespace per group, with the `tool_search` tool.
   */
  readonly deferral?: boolean;
}

/**
 * The tools for OpenAI's Chat Completions, each with its `openai-strict` document and `strict: true`
 * set explicitly (without it, Chat Completions is not strict and Responses rewrites the schema
 * itself). A tool that falls back is sent with its MCP document (its root union merged) and
 * `strict: false`, explicitly too, so that Responses leaves it as it is; a tool left out of the
 * profile is not sent. The tools must be prepared with the `openai-strict` profile. Chat
 * Completions has no deferral: a tool the build deferred is sent whole.
 */
export function openaiChatTools(runtime: ToolRuntime): ChatCompletionsTool[] {
  return profileTools(runtime, 'openai-strict').map(({ tool, parameters, fallback }) => ({
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters, strict: fallback === undefined },
  }));
}

/**
 * The tools for OpenAI's Responses API, as `openaiChatTools` makes them for Chat Completions. Where
 * the build deferred tools, each group's are sent as one `namespace` (its description the group's,
 * or a list of its tools), a deferred tool in no group alone, all with `defer_loading: true`, and
 * the hosted `tool_search` last; eager tools stay as they are.
 */
export function openaiResponsesTools(
  runtime: ToolRuntime,
  { deferral }: ResponsesToolsOptions = {},
): (ResponsesTool | ResponsesNamespace | ResponsesToolSearch)[] {
  const chosen = profileTools(runtime, 'openai-strict');
  const functionOf = ({ tool, parameters, fallback }: ProfileTool): ResponsesTool => ({
    type: 'function',
    name: tool.name,
    description: tool.description,
    parameters,
    strict: fallback === undefined,
    ...(sentDeferred(tool, deferral) ? { defer_loading: true as const } : {}),
  });
  const sent = responsesLayout(runtime, chosen, deferral).map((entry) =>
    'tool' in entry
      ? functionOf(entry.tool)
      : {
          type: 'namespace' as const,
          name: entry.namespace,
          description: entry.description,
          tools: entry.tools.map(functionOf),
        },
  );
  if (!chosen.some(({ tool }) => sentDeferred(tool, deferral))) return sent;
  return [...sent, searchToolBeside(chosen, 'tool_search', { type: 'tool_search' as const })];
}

/**
 * A tool call of a Chat Completions message (`message.tool_calls[i]`): a function's, or (since
 * openai 6) a custom tool's, which carries free text.
 */
export type ChatToolCall =
  | {
      readonly id: string;
      readonly type?: 'function';
      readonly function: { readonly name: string; readonly arguments: string };
    }
  | {
      readonly id: string;
      readonly type: 'custom';
      readonly custom: { readonly name: string; readonly input: string };
    };

/**
 * Runs a Chat Completions tool call through the runner, the profile's inverse steps first (`null`
 * for a key left out), and returns the `tool` message to send back. Its content is text, which is
 * all a tool message carries: an image or a file the tool returned is named by a placeholder
 * (`[left out: image image/png, 12,345 bytes]`); the Responses API takes them. toolprep's tools
 * are function tools, so a custom tool's call is answered as the runner answers a tool it does not
 * have.
 */
export async function runChatToolCall(
  runtime: ToolRuntime,
  call: ChatToolCall,
  context?: unknown,
): Promise<{ role: 'tool'; tool_call_id: string; content: string }> {
  const [name, args] =
    'custom' in call ? [call.custom.name, call.custom.input] : [call.function.name, call.function.arguments];
  const reply = await callThroughProfile(runtime, name, args, 'openai-strict', context);
  return {
    role: 'tool',
    tool_call_id: call.id,
    content: reply.ok ? renderChatContent(reply.value) : reply.text,
  };
}

/**
 * Runs a Responses `function_call` output item through the runner, as `runChatToolCall` does, and
 * returns the `function_call_output` item to send back: text, or, where the tool returned media,
 * `input_text`, `input_image` (PNG, JPEG, GIF, WebP) and `input_file` (PDF) parts, other media
 * named by a placeholder.
 */
export async function runResponsesFunctionCall(
  runtime: ToolRuntime,
  call: { readonly call_id: string; readonly name: string; readonly arguments: string },
  context?: unknown,
): Promise<{ type: 'function_call_output'; call_id: string; output: string | ResponsesOutputPart[] }> {
  const reply = await callThroughProfile(runtime, call.name, call.arguments, 'openai-strict', context);
  return {
    type: 'function_call_output',
    call_id: call.call_id,
    output: reply.ok ? renderResponsesOutput(reply.value) : reply.text,
  };
}
