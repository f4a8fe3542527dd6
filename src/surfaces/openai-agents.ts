import { type FunctionTool, tool } from '@openai/agents';
import type { ToolRuntime } from '../runtime/runner.js';
import { callThroughProfile, profileTools } from './profile-call.js';
import { renderAgentsOutput } from './tool-content.js';

export interface AgentsToolsOptions {
  /** The context each handler receives. Default: the agent's run context. */
  readonly context?: unknown;
}

/**
 * The tools for an `@openai/agents` Agent: each a function tool with its `openai-strict` document,
 * `strict: true` (`false`, with its MCP document, where it falls back), run through the runner
 * with the inverse steps of the profile it was sent with. A result is text, or the agents' own
 * text, image (PNG, JPEG, GIF, WebP) and file (PDF) outputs where the tool returned media (other
 * media named by a placeholder). A failed call's message is what the model reads.
 */
export function agentsTools(runtime: ToolRuntime, options: AgentsToolsOptions = {}): FunctionTool[] {
  return profileTools(runtime, 'openai-strict').map(
    ({ tool: prepared, parameters, fallback }) =>
      tool({
        name: prepared.name,
        description: prepared.description,
        parameters: parameters as never,
        strict: fallback === undefined,
        execute: async (input: unknown, runContext: unknown) => {
          const reply = await callThroughProfile(
            runtime,
            prepared.name,
            input,
            'openai-strict',
            options.context ?? runContext,
          );
          if (!reply.ok) throw new Error(reply.text);
          return renderAgentsOutput(reply.value);
        },
        errorFunction: (_context, error) => (error instanceof Error ? error.message : String(error)),
      }) as unknown as FunctionTool,
  );
}
