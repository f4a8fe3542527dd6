import { type FunctionTool, type HostedTool, tool, toolNamespace, toolSearchTool } from '@openai/agents';
import type { ToolRuntime } from '../runtime/runner.js';
import {
  callThroughProfile,
  type ProfileTool,
  profileTools,
  responsesLayout,
  searchToolBeside,
  sentDeferred,
} from './profile-call.js';
import { renderAgentsOutput } from './tool-content.js';

export interface AgentsToolsOptions {
  /** The context each handler receives. Default: the agent's run context. */
  readonly context?: unknown;
  /**
   * `false`: every tool sent whole, and no tool search. Default: the tools the build deferred get
   * `deferLoading: true`, each group's in a `toolNamespace`, with `toolSearchTool()` beside them.
   */
  readonly deferral?: boolean;
}

/**
 * The tools for an `@openai/agents` Agent: each a function tool with its `openai-strict` document,
 * `strict: true` (`false`, with its MCP document, where it falls back), run through the runner
 * with the inverse steps of the profile it was sent with. A result is text, or the agents' own
 * text, image (PNG, JPEG, GIF, WebP) and file (PDF) outputs where the tool returned media (other
 * media named by a placeholder). A failed call's message is what the model reads. Where the build
 * deferred tools, they are laid out as `openaiResponsesTools` lays them out (namespaces per group,
 * `deferLoading`), with the hosted `toolSearchTool()` last: deferral is the Responses API's alone.
 */
export function agentsTools(
  runtime: ToolRuntime,
  options: AgentsToolsOptions = {},
): (FunctionTool | HostedTool)[] {
  const { deferral } = options;
  const functionOf = ({ tool: prepared, parameters, fallback }: ProfileTool) =>
    tool({
      name: prepared.name,
      description: prepared.description,
      parameters: parameters as never,
      strict: fallback === undefined,
      ...(sentDeferred(prepared, deferral) ? { deferLoading: true } : {}),
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
    }) as unknown as FunctionTool;
  const chosen = profileTools(runtime, 'openai-strict');
  const tools = responsesLayout(runtime, chosen, deferral).flatMap((entry) =>
    'tool' in entry
      ? [functionOf(entry.tool)]
      : toolNamespace({
          name: entry.namespace,
          description: entry.description,
          tools: entry.tools.map(functionOf),
        }),
  );
  if (!chosen.some(({ tool: prepared }) => sentDeferred(prepared, deferral))) return tools;
  return [...tools, searchToolBeside(chosen, 'tool_search', toolSearchTool())];
}
