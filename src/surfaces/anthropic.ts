import { anthropicStrictOverruns } from '../manifest/profiles.js';
import type { ToolRuntime } from '../runtime/runner.js';
import type { JsonSchema } from '../shared/json-schema/schema.js';
import { callThroughProfile, profileTools } from './profile-call.js';
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
}

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
}

const profileOf = (strict: boolean | undefined) => (strict ? 'anthropic-strict' : 'anthropic');

/**
 * The tools for Anthropic's Messages API, each with its profile's document; under strict, a tool
 * that falls back (declared, or by the build's budget plan) is sent as `anthropic`, without
 * `strict`. Strict tools that one request cannot send together (`ANTHROPIC_STRICT_LIMITS`) are
 * refused here, naming what they spend, rather than by the API.
 */
export function anthropicTools(
  runtime: ToolRuntime,
  { strict, tools: names }: AnthropicToolsChoice = {},
): AnthropicTool[] {
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
  return chosen.map(({ tool, parameters, fallback }) => ({
    name: tool.name,
    description: tool.description,
    input_schema: parameters as AnthropicInputSchema,
    ...(strict && fallback === undefined ? { strict: true as const } : {}),
  }));
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
