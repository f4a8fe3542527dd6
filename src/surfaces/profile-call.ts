import type { PreparedTool } from '../manifest/prepared-tool.js';
import type { FallbackProfile, ProfileName } from '../manifest/profiles.js';
import type { ToolRuntime } from '../runtime/runner.js';
import type { JsonSchema } from '../shared/json-schema/schema.js';

/** A tool as one profile's surface sends it. */
export interface ProfileTool {
  readonly tool: PreparedTool;
  readonly parameters: JsonSchema;
  /** Where the tool falls back from the profile: sent as that one's (not strict). */
  readonly fallback?: FallbackProfile;
}

/**
 * What the provider surfaces share: each prepared tool's document for one profile (a tool prepared
 * without it is refused, by name, when the tools are made; a tool left out of it is not sent), and
 * a call through the runner with that profile's inverse steps, its value for each surface to render
 * (tool-content.ts). With `names`, those tools only, in that order.
 */
export function profileTools(
  runtime: ToolRuntime,
  profile: ProfileName,
  names?: readonly string[],
): ProfileTool[] {
  const tools = runtime.list();
  const chosen = names
    ? names.map((name) => {
        const tool = tools.find((candidate) => candidate.name === name);
        if (!tool)
          throw new Error(
            `[toolprep] no tool is named "${name}"; the tools are ${tools.map((other) => other.name).join(', ')}`,
          );
        const excluded = tool.excludedFrom?.[profile];
        if (excluded !== undefined)
          throw new Error(`[toolprep] tool "${name}" is left out of the profile ${profile}: ${excluded}`);
        return tool;
      })
    : tools.filter((tool) => tool.excludedFrom?.[profile] === undefined);
  return chosen.map((tool) => {
    const document = tool.profiles?.[profile];
    if (!document)
      throw new Error(
        `[toolprep] tool "${tool.name}" was not prepared for the profile ${profile}: add "${profile}" to profiles in the toolprep config`,
      );
    return {
      tool,
      parameters: document.inputSchema,
      ...(document.fallback ? { fallback: document.fallback } : {}),
    };
  });
}

/** A call's outcome: the value, which each surface renders as its format takes it, or the error's message. */
export type ModelReply =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly text: string };

/**
 * Calls a tool with arguments as a provider sends them (JSON text, or already parsed). A call of a
 * tool there is not is the runner's to answer (and its hooks' to see), whatever its arguments.
 */
export async function callThroughProfile(
  runtime: ToolRuntime,
  name: string,
  args: unknown,
  profile: ProfileName,
  context: unknown,
): Promise<ModelReply> {
  let parsed = args;
  if (typeof args === 'string') {
    try {
      parsed = args.trim() === '' ? {} : JSON.parse(args);
    } catch {
      if (runtime.list().some((tool) => tool.name === name))
        return { ok: false, text: `The arguments are not JSON: ${args.slice(0, 80)}` };
    }
  }
  // The runner runs the inverse steps of the profile the tool is sent with (its fallback's, where it falls back).
  const result = await runtime.call(name, parsed, context, { profile });
  return result.ok ? { ok: true, value: result.value } : { ok: false, text: result.error.message };
}
