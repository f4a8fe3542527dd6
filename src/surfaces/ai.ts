import { jsonSchema, type ToolSet, tool } from 'ai';
import type { ProfileName } from '../manifest/profiles.js';
import type { ToolError, ToolRuntime } from '../runtime/runner.js';
import { profileTools } from './profile-call.js';
import { renderAiOutput } from './tool-content.js';

/** A failed tool call, as the AI SDK reports it to the model: the runner's message and code. */
export class ToolCallError extends Error {
  override readonly name = 'ToolCallError';
  readonly code: ToolError['code'];
  readonly issues: ToolError['issues'];
  constructor(error: ToolError) {
    super(error.message);
    this.code = error.code;
    this.issues = error.issues;
  }

  /** The message alone: AI SDK 7 shows a tool's error to the model as `String(error)`. */
  override toString(): string {
    return this.message;
  }
}

export interface AiToolsOptions {
  /** The context each handler receives. Default: `{ toolCallId, abortSignal }` of the call. */
  readonly context?: unknown;
  /**
   * The provider profile the model behind the agent takes (the tools must be prepared with it):
   * each tool's schema is then that profile's document (`strict: true` under `openai-strict` and
   * `anthropic-strict`), and each call runs its inverse steps. Default: the draft-07 document.
   */
  readonly profile?: ProfileName;
}

const STRICT_PROFILES: readonly ProfileName[] = ['openai-strict', 'anthropic-strict'];

/**
 * The `tools` record for `generateText` / `streamText` (AI SDK 6). Each tool's schema is the
 * prepared draft-07 document (or the chosen profile's), shown as it is; the AI SDK does not validate it, so that the runner
 * repairs the arguments and runs the contract's parser once. A failed call throws a
 * `ToolCallError`, which the AI SDK hands to the model as a tool error.
 */
export function aiTools(runtime: ToolRuntime, options: AiToolsOptions = {}): ToolSet {
  const { profile } = options;
  const tools = profile
    ? profileTools(runtime, profile)
    : runtime.list().map((tool) => ({ tool, parameters: tool.inputSchema.agent }));
  return Object.fromEntries(
    tools.map(({ tool: prepared, parameters }) => [
      prepared.name,
      tool({
        description: prepared.description,
        inputSchema: jsonSchema<unknown>(parameters as Parameters<typeof jsonSchema>[0], {
          // Pass-through: validation is the runner's, so that it happens once, after the repair.
          validate: (value) => ({ success: true, value }),
        }),
        ...(profile && STRICT_PROFILES.includes(profile) ? { strict: true } : {}),
        execute: async (input, { toolCallId, abortSignal }) => {
          const result = await runtime.call(
            prepared.name,
            input,
            options.context ?? { toolCallId, abortSignal },
            { profile },
          );
          if (!result.ok) throw new ToolCallError(result.error);
          return result.value;
        },
        // What the model reads of a result, rendered as every surface's is.
        toModelOutput: ({ output }) => renderAiOutput(output),
      }),
    ]),
  );
}
