import { anthropicStrictOverruns } from '../manifest/profiles.js';
import type { ToolRuntime } from '../runtime/runner.js';
import type { JsonSchema } from '../shared/json-schema/schema.js';
import { callThroughProfile, profileTools, searchToolBeside, sentDeferred } from './profile-call.js';
import { type AnthropicResultBlock, renderAnthropicContent } from './tool-content.js';

/**
 * An `input_schema`: the profile's document, whose root is an object (the profiles merge a root
 * union into one, or refuse it at build time), as the SDK's `Tool.InputSchema` requires.
 */
export type AnthropicInputSchema = JsonSchema & { readonly type: 'object' };

/** A client tool for Anthropic's Messages API (`tools` of `messages.create`). */
export interface AnthropicTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: AnthropicInputSchema;
  /**
   * Set with the `anthropic-strict` profile: grammar-constrained tool inputs. Absent, under it, for
   * a tool that falls back to `anthropic`.
   */
  readonly strict?: true;
  /** Set on a tool the build deferred: it stays out of the prompt until the tool search tool finds it. */
  readonly defer_loading?: true;
}

/** Anthropic's server-side tool search, sent beside deferred tools: BM25 over words, or a regex the model writes. */
export type AnthropicToolSearchTool =
  | { readonly type: 'tool_search_tool_bm25_20251119'; readonly name: 'tool_search_tool_bm25' }
  | { readonly type: 'tool_search_tool_regex_20251119'; readonly name: 'tool_search_tool_regex' };

export interface AnthropicToolsOptions {
  /** Strict tool use: the `anthropic-strict` document and `strict: true`. Default: `anthropic`. */
  readonly strict?: boolean;
}

export interface AnthropicToolsChoice extends AnthropicToolsOptions {
  /**
   * The tools to send, by name, in this order; all of them by default. Strict tool use limits
   * what one request may send (20 tools, 24 optional parameters, 16 with union types), so a large
   * strict set is sent a few tools at a time.
   */
  readonly tools?: readonly string[];
  /**
   * `false`: every tool sent whole, and no tool search. Default: the tools the build deferred
   * (`loading: 'deferred'`) are sent with `defer_loading: true`, and a tool search tool first.
   */
  readonly deferral?: boolean;
  /** The tool search sent beside deferred tools: `bm25` (natural-language queries, the default) or `regex`. */
  readonly toolSearch?: 'bm25' | 'regex';
}

const TOOL_SEARCH: { readonly [Kind in 'bm25' | 'regex']: AnthropicToolSearchTool } = {
  bm25: { type: 'tool_search_tool_bm25_20251119', name: 'tool_search_tool_bm25' },
  regex: { type: 'tool_search_tool_regex_20251119', name: 'tool_search_tool_regex' },
};

const profileOf = (strict: boolean | undefined) => (strict ? 'anthropic-strict' : 'anthropic');

/**
 * The tools for Anthropic's Messages API, each with its profile's document; under strict, a tool
 * that falls back (declared, or by the build's budget plan) is sent as `anthropic`, without
 * `strict`. Strict tools that one request cannot send together (`ANTHROPIC_STRICT_LIMITS`) are
 * refused here, naming what they spend, rather than by the API. Where the build deferred tools,
 * they are sent with `defer_loading: true` after a tool search tool, which loads them when found.
 */
export function anthropicTools(
  runtime: ToolRuntime,
  { strict, tools: names, deferral, toolSearch = 'bm25' }: AnthropicToolsChoice = {},
): (AnthropicTool | AnthropicToolSearchTool)[] {
  const chosen = profileTools(runtime, profileOf(strict), names);
  if (strict) {
    const overruns = anthropicStrictOverruns(
      chosen.flatMap(({ tool, fallback }) =>
        fallback
          ? []
          : [
              {
                name: tool.name,
                strictBudget: tool.profiles?.['anthropic-strict']?.strictBudget ?? { optional: 0, unions: 0 },
              },
            ],
      ),
    );
    if (overruns.length > 0)
      throw new Error(
        `[toolprep] one strict request cannot send these tools: ${overruns.join('; ')}. Choose fewer with the tools option`,
      );
  }
  const tools = chosen.map(
    ({ tool, parameters, fallback }): AnthropicTool => ({
      name: tool.name,
      description: tool.description,
      input_schema: parameters as AnthropicInputSchema,
      ...(strict && fallback === undefined ? { strict: true as const } : {}),
      ...(sentDeferred(tool, deferral) ? { defer_loading: true as const } : {}),
    }),
  );
  if (!tools.some((tool) => tool.defer_loading)) return tools;
  const search = TOOL_SEARCH[toolSearch];
  return [searchToolBeside(chosen, search.name, search), ...tools];
}

/**
 * Runs a `tool_use` content block through the runner, the profile's inverse steps first (`null`
 * for a key left out; under strict, an enum value in another case), and returns the `tool_result`
 * block to send back: text, or, where the tool returned media, text, `image` (PNG, JPEG, GIF,
 * WebP) and `document` (PDF) blocks, other media named by a placeholder.
 */
export async function runAnthropicToolUse(
  runtime: ToolRuntime,
  block: { readonly id: string; readonly name: string; readonly input: unknown },
  { strict, context }: AnthropicToolsOptions & { readonly context?: unknown } = {},
): Promise<{
  type: 'tool_result';
  tool_use_id: string;
  content: string | AnthropicResultBlock[];
  is_error?: true;
}> {
  const reply = await callThroughProfile(runtime, block.name, block.input, profileOf(strict), context);
  return {
    type: 'tool_result',
    tool_use_id: block.id,
    content: reply.ok ? renderAnthropicContent(reply.value) : reply.text,
    ...(reply.ok ? {} : { is_error: true as const }),
  };
}
