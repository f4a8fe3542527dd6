import type { z } from 'zod';
import { builderOf } from '../adapters/builders.js';
import { parseOptions, prepareOptionsSchema, surfaceOptionsSchema } from '../config/options-schema.js';
import type { ToolContract } from '../contract/types.js';
import { MANIFEST_FORMAT } from '../manifest/manifest.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import { SEARCH_TOOL_NAME } from '../manifest/search-index.js';
import type { PreparedToolSet } from '../manifest/tool-set.js';
import { formatProblem, type Problem, ToolprepError } from '../shared/build/problems.js';
import { prepareExtension } from './extension.js';
import { type PrepareToolOptions, prepareTool } from './prepare-tool.js';
import { budgetStrictRequests } from './profiles/request-budget.js';
import { buildSearchIndex } from './search-index.js';
import { prepareSearchTool } from './search-tool.js';
import { arrangeSurface, declaredDisclosureOf } from './surface-arrangement.js';
import { listedBytes, toolSize } from './tool-size.js';

/**
 * What the generated module's `tools` gives, made in this process from contracts at hand (by export
 * name): for scripts and tests with no build step. The generator is the way for a server: it
 * prepares once, at build time, and loads each contract on its tool's first call.
 */
export function prepareToolSet(
  contracts: Readonly<Record<string, ToolContract>>,
  options: Omit<PrepareToolOptions, 'exportName' | 'description'> &
    Partial<z.input<typeof surfaceOptionsSchema>> & {
      /** The search index, and `search_tools` with `tool: true`, as the config's `search` gives them. */
      readonly search?: { readonly tool?: boolean };
    } = {},
): PreparedToolSet {
  const {
    warn = (problem: Problem) => console.warn(formatProblem(problem)),
    groups,
    loading,
    access,
    search,
    ...settings
  } = options;
  const resolved = parseOptions(prepareOptionsSchema, settings, 'prepareToolSet options');
  const surface = parseOptions(surfaceOptionsSchema, { groups, loading, access }, 'prepareToolSet options');
  const { extend } = resolved;
  const each = Object.entries(contracts).map(([exportName, contract]) => ({
    contract,
    tool: prepareTool(contract, { ...settings, warn, exportName }),
  }));
  // A view is built from files, by the generator: a set made here has none, and says so.
  for (const { contract, tool } of each)
    if ((contract as { view?: unknown }).view !== undefined)
      warn({
        severity: 'warning',
        code: 'view-link',
        tool: tool.name,
        field: 'view',
        message:
          'is built by toolprep generate or a bundler plugin; prepareToolSet prepares the tool without it',
        hint: 'serve views from the generated module',
      });
  // Anthropic's per-request budget is the set's: checked, or planned, over every tool.
  const budgeted = budgetStrictRequests(
    each.map(({ tool }) => tool),
    resolved,
  );
  for (const warning of budgeted.warnings) warn(warning);
  const arrangement = arrangeSurface(
    budgeted.tools.map((tool, index) => ({
      prepared: tool,
      declared: declaredDisclosureOf(each[index]?.contract as ToolContract),
      bytes: listedBytes(tool),
      tokens: () => toolSize(tool).tokens,
    })),
    surface,
  );
  if (arrangement.problems.length > 0) throw new ToolprepError(arrangement.problems);
  for (const warning of arrangement.warnings) warn(warning);
  const prepared = each.map(({ contract }, index) => ({
    contract,
    tool: arrangement.tools[index] as PreparedTool,
  }));
  if (search?.tool && prepared.some(({ tool }) => tool.name === SEARCH_TOOL_NAME))
    throw new Error(
      `[toolprep] search.tool serves a tool named "${SEARCH_TOOL_NAME}", and a contract takes that name: rename that tool`,
    );
  const extension = prepareExtension(extend);
  // The run-time adapters of every library the contracts and the extension keys are written with.
  const schemas = [
    ...Object.values(contracts).flatMap((contract) => [contract.input, contract.params, contract.output]),
    extend?.schema,
  ];
  const adapters = new Set(schemas.flatMap((schema) => builderOf(schema)?.runtime ?? []));
  return {
    format: MANIFEST_FORMAT,
    extensionKeys: extension.keys,
    prepared: prepared.map(({ tool }) => tool),
    load: Object.fromEntries(prepared.map(({ tool, contract }) => [tool.name, () => contract])),
    adapters: [...adapters],
    ...(arrangement.groups.length > 0 ? { groups: arrangement.groups } : {}),
    ...(search
      ? {
          search: {
            index: JSON.stringify(buildSearchIndex(prepared.map(({ tool }) => tool))),
            ...(search.tool ? { tool: prepareSearchTool(resolved) } : {}),
          },
        }
      : {}),
  };
}
