import { jsonSchema, type ToolSet, tool } from 'ai';
import type { ToolError, ToolRuntime } from '../runtime/runner.js';

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
}

export interface AiToolsOptions {
  /** The context each handler receives. Default: `{ toolCallId, abortSignal }` of the call. */
  readonly context?: unknown;
}

/**
 * The `tools` record for `generateText` / `streamText` (AI SDK 6). Each tool's schema is the
 * prepared draft-07 document, shown as it is; the AI SDK does not validate it, so that the runner
 * repairs the arguments and runs the contract's parser once. A failed call throws a
 * `ToolCallError`, which the AI SDK hands to the model as a tool error.
 */
export function aiTools(runtime: ToolRuntime, options: AiToolsOptions = {}): ToolSet {
  return Object.fromEntries(
    runtime.list().map((prepared) => [
      prepared.name,
      tool({
        description: prepared.description,
        inputSchema: jsonSchema<unknown>(prepared.inputSchema.agent as Parameters<typeof jsonSchema>[0], {
          // Pass-through: validation is the runner's, so that it happens once, after the repair.
          validate: (value) => ({ success: true, value }),
        }),
        execute: async (input, { toolCallId, abortSignal }) => {
          const result = await runtime.call(
            prepared.name,
            input,
            options.context ?? { toolCallId, abortSignal },
          );
          if (!result.ok) throw new ToolCallError(result.error);
          return result.value;
        },
      }),
    ]),
  );
}
