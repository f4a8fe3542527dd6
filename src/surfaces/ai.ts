import * as aiSdk from 'ai';
import { jsonSchema, type ToolSet, tool } from 'ai';
import type { ProfileName } from '../manifest/profiles.js';
import { runtimeFor, type ToolError, type ToolRuntime } from '../runtime/runner.js';
import type { Caller } from '../runtime/visibility.js';
import { profileTools, searchToolBeside, sentDeferred } from './profile-call.js';
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
  /**
   * `false`: every tool sent whole, and no tool search. Default, on AI SDK 7: the tools the build
   * deferred get `deferLoading: true`, and `toolSearch()` is added as `tool_search`, which finds
   * them by name and description. AI SDK 6 has no deferral: every tool is sent whole.
   */
  readonly deferral?: boolean;
  /**
   * Who the agent acts for: only the tools its scopes cover are given to the model, and a call of
   * another is refused as an unknown tool's. Default: the process itself, every tool.
   */
  readonly caller?: Caller;
}

/** AI SDK 7's `toolSearch()` (AI SDK 6 has none): read off the module, which may be either. */
const toolSearch = (aiSdk as { readonly toolSearch?: () => ToolSet[string] }).toolSearch;
const SEARCH_TOOL = 'tool_search';

const STRICT_PROFILES: readonly ProfileName[] = ['openai-strict', 'anthropic-strict'];

/**
 * The `tools` record for `generateText` / `streamText` (AI SDK 6 or 7). Each tool's schema is the
 * prepared draft-07 document (or the chosen profile's), shown as it is; the AI SDK does not validate it, so that the runner
 * repairs the arguments and runs the contract's parser once. A failed call throws a
 * `ToolCallError`, which the AI SDK hands to the model as a tool error. On AI SDK 7, the tools the
 * build deferred are found by `toolSearch()`, added beside them.
 */
export function aiTools(base: ToolRuntime, options: AiToolsOptions = {}): ToolSet {
  const { profile, caller } = options;
  const runtime = runtimeFor(base, { ...(caller ? { caller } : {}), model: true });
  const deferral = toolSearch === undefined ? false : options.deferral;
  const tools = profile
    ? profileTools(runtime, profile)
    : runtime.list().map((tool) => ({ tool, parameters: tool.inputSchema.agent }));
  const search =
    toolSearch && tools.some(({ tool: prepared }) => sentDeferred(prepared, deferral))
      ? [[SEARCH_TOOL, searchToolBeside(tools, SEARCH_TOOL, toolSearch())]]
      : [];
  return Object.fromEntries([
    ...search,
    ...tools.map(({ tool: prepared, parameters }) => [
      prepared.name,
      tool({
        description: prepared.description,
        inputSchema: jsonSchema<unknown>(parameters as Parameters<typeof jsonSchema>[0], {
          // Pass-through: validation is the runner's, so that it happens once, after the repair.
          validate: (value) => ({ success: true, value }),
        }),
        ...(profile && STRICT_PROFILES.includes(profile) ? { strict: true } : {}),
        ...(sentDeferred(prepared, deferral) ? { deferLoading: true } : {}),
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
  ]);
}
