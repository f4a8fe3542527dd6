import type { JsonSchema } from '../manifest/prepared-tool.js';
import type { ToolRuntime } from '../runtime/runner.js';
import { callThroughProfile, profileTools } from './profile-call.js';

/** A client tool for Anthropic's Messages API (`tools` of `messages.create`). */
export interface AnthropicTool {
  readonly name: string;
  readonly description: string;
  readonly input_schema: JsonSchema;
  /** Set with the `anthropic-strict` profile: grammar-constrained tool inputs. */
  readonly strict?: true;
}

export interface AnthropicToolsOptions {
  /** Strict tool use: the `anthropic-strict` document and `strict: true`. Default: `anthropic`. */
  readonly strict?: boolean;
}

const profileOf = (strict: boolean | undefined) => (strict ? 'anthropic-strict' : 'anthropic');

/** The tools for Anthropic's Messages API, each with its profile's document. */
export function anthropicTools(
  runtime: ToolRuntime,
  { strict }: AnthropicToolsOptions = {},
): AnthropicTool[] {
  return profileTools(runtime, profileOf(strict)).map(({ tool, parameters }) => ({
    name: tool.name,
    description: tool.description,
    input_schema: parameters,
    ...(strict ? { strict: true as const } : {}),
  }));
}

/**
 * Runs a `tool_use` content block through the runner, the profile's inverse steps first (`null`
 * for a key left out; under strict, an enum value in another case), and returns the `tool_result`
 * block to send back.
 */
export async function runAnthropicToolUse(
  runtime: ToolRuntime,
  block: { readonly id: string; readonly name: string; readonly input: unknown },
  { strict, context }: AnthropicToolsOptions & { readonly context?: unknown } = {},
): Promise<{ type: 'tool_result'; tool_use_id: string; content: string; is_error?: true }> {
  const reply = await callThroughProfile(runtime, block.name, block.input, profileOf(strict), context);
  return {
    type: 'tool_result',
    tool_use_id: block.id,
    content: reply.text,
    ...(reply.ok ? {} : { is_error: true as const }),
  };
}
