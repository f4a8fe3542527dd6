import { openaiNamespaces } from '../manifest/deferral.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import type { FallbackProfile, ProfileName } from '../manifest/profiles.js';
import type { ToolRuntime } from '../runtime/runner.js';
import type { Audience } from '../runtime/visibility.js';
import type { JsonSchema } from '../shared/json-schema/schema.js';

/** The provider surfaces show tools to a model: tools only an app may call are hidden from them. */
const MODEL: Audience = { model: true };

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
 * (tool-content.ts). With `names`, those tools only, in that order. Only the tools a model may see
 * are shown and called, and of those only what the runtime's audience sees (`runtimeFor`).
 */
export function profileTools(
  runtime: ToolRuntime,
  profile: ProfileName,
  names?: readonly string[],
): ProfileTool[] {
  const tools = runtime.list(MODEL);
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

/**
 * Whether a surface sends the tool deferred, for its tool search to load: as the build decided
 * (`loading: 'deferred'`), unless the caller's `deferral: false` sends every tool whole.
 */
export const sentDeferred = (tool: PreparedTool, deferral: boolean | undefined): boolean =>
  deferral !== false && tool.loading === 'deferred';

/** The search tool a surface adds for its deferred tools, refused where a tool of the set has its name. */
export function searchToolBeside<Search>(
  tools: readonly ProfileTool[],
  name: string,
  search: Search,
): Search {
  if (tools.some(({ tool }) => tool.name === name))
    throw new Error(
      `[toolprep] tool "${name}" has the name of the tool search tool sent beside deferred tools: rename it, or pass deferral: false`,
    );
  return search;
}

/** One entry of what the OpenAI Responses surfaces send: a tool alone, or a group's deferred tools as a namespace. */
export type ResponsesEntry =
  | { readonly tool: ProfileTool }
  | { readonly namespace: string; readonly description: string; readonly tools: readonly ProfileTool[] };

/**
 * The tools as the Responses surfaces lay them out: with deferral, each group's deferred tools as
 * one namespace where its first comes (described by the group's description or, without one, its
 * tools' names); every other tool alone, in the order of the set.
 */
export function responsesLayout(
  runtime: ToolRuntime,
  chosen: readonly ProfileTool[],
  deferral: boolean | undefined,
): ResponsesEntry[] {
  const namespaces =
    deferral === false ? new Map<string, ProfileTool[]>() : openaiNamespaces(chosen, ({ tool }) => tool);
  return chosen.flatMap((item): ResponsesEntry[] => {
    const namespace = item.tool.groups?.[0] ?? '';
    const members = namespaces.get(namespace);
    if (!members?.includes(item)) return [{ tool: item }];
    if (members[0] !== item) return [];
    const description =
      runtime.groups?.find((group) => group.name === namespace)?.description ??
      `The ${namespace} tools: ${members.map(({ tool }) => tool.name).join(', ')}.`;
    return [{ namespace, description, tools: members }];
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
      if (runtime.list(MODEL).some((tool) => tool.name === name))
        return { ok: false, text: `The arguments are not JSON: ${args.slice(0, 80)}` };
    }
  }
  // The runner runs the inverse steps of the profile the tool is sent with (its fallback's, where it falls back).
  const result = await runtime.call(name, parsed, context, { profile, audience: MODEL });
  return result.ok ? { ok: true, value: result.value } : { ok: false, text: result.error.message };
}
