import type { PrepareSettings } from '../../config/options.js';
import type { PreparedTool } from '../../manifest/prepared-tool.js';
import {
  ANTHROPIC_STRICT_LIMITS,
  anthropicStrictOverruns,
  type StrictBudget,
} from '../../manifest/profiles.js';
import { deepFreeze, digestOf } from '../../shared/build/canonical-json.js';
import { plural } from '../../shared/build/plural.js';
import type { Problem } from '../../shared/build/problems.js';
import { requiredKeys } from '../../shared/json-schema/records.js';
import type { JsonSchema } from '../../shared/json-schema/schema.js';
import { namePattern } from './choices.js';
import { FALLBACK_PROJECTIONS } from './index.js';
import { forEachNode } from './tree.js';

const STRICT = 'anthropic-strict';

type StrictOptions = NonNullable<PrepareSettings['profileOptions']['anthropic-strict']>;

/** A request the config says the tools are sent in: its name and the strict tools it carries. */
interface Request {
  readonly name: string;
  readonly tools: readonly string[];
}

interface StrictTool {
  readonly name: string;
  readonly strictBudget: StrictBudget;
  readonly document: JsonSchema;
}

/** The tools each strict request sends: every one of them, or each of the config's `requests`. */
function requestsOf(tools: readonly StrictTool[], requests: StrictOptions['requests']): Request[] {
  const names = tools.map((tool) => tool.name);
  if (requests === undefined) return [{ name: `all ${names.length} tools`, tools: names }];
  const grouped = Object.entries(requests).map(([name, patterns]) => {
    const tests = patterns.map(namePattern);
    return { name: `"${name}"`, tools: names.filter((tool) => tests.some((test) => test(tool))) };
  });
  // A strict tool no request names is still sent by some request: counted together, never dropped.
  const named = new Set(grouped.flatMap((request) => request.tools));
  const rest = names.filter((name) => !named.has(name));
  return rest.length > 0 ? [...grouped, { name: 'the tools no request names', tools: rest }] : grouped;
}

function strictToolsOf(tools: readonly PreparedTool[]): StrictTool[] {
  return tools.flatMap((tool) => {
    const entry = tool.profiles?.[STRICT];
    return entry?.strictBudget && !entry.fallback
      ? [{ name: tool.name, strictBudget: entry.strictBudget, document: entry.inputSchema }]
      : [];
  });
}

/**
 * What the strict requests would exceed (`budget: 'check'`, and what a plan leaves): a warning
 * per request and limit, naming the tools that spend the most.
 */
function strictRequestOverruns(
  tools: readonly PreparedTool[],
  options: StrictOptions | undefined,
): Problem[] {
  const strict = strictToolsOf(tools);
  const byName = new Map(strict.map((tool) => [tool.name, tool]));
  return requestsOf(strict, options?.requests).flatMap((request) =>
    anthropicStrictOverruns(request.tools.flatMap((name) => byName.get(name) ?? [])).map(
      (overrun): Problem => ({
        severity: 'warning',
        code: 'profile-limit',
        profile: STRICT,
        message: `one request with ${request.name} would send ${overrun}`,
        hint: "send fewer tools per request (the tools option of anthropicTools), make parameters required, or plan the budget: profileOptions: { 'anthropic-strict': { budget: 'plan' } }",
      }),
    ),
  );
}

/**
 * Constraints the strict grammar enforces that a non-strict model may miss: required properties,
 * enum and const values, formats and patterns. The tools with the most gain most from strict.
 */
function constraintsOf(document: JsonSchema): number {
  let count = 0;
  forEachNode(document, (node) => {
    count += requiredKeys(node).length;
    for (const keyword of ['enum', 'const', 'format', 'pattern']) if (keyword in node) count++;
  });
  return count;
}

/**
 * The order in which the plan keeps tools strict: those `order` names, in its order; then the most
 * constrained first, the one spending less of the budget before an equal one, then by name.
 */
function planningOrder(tools: readonly StrictTool[], order: readonly string[]): StrictTool[] {
  const tests = order.map(namePattern);
  const rank = (tool: StrictTool) => {
    const index = tests.findIndex((test) => test(tool.name));
    return index === -1 ? tests.length : index;
  };
  const spent = (tool: StrictTool) => tool.strictBudget.optional + tool.strictBudget.unions;
  const constraints = new Map(tools.map((tool) => [tool.name, constraintsOf(tool.document)]));
  return [...tools].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      (constraints.get(b.name) ?? 0) - (constraints.get(a.name) ?? 0) ||
      spent(a) - spent(b) ||
      (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
  );
}

interface Spent {
  tools: number;
  optional: number;
  unions: number;
}

/** The first limit this tool would take the request over, in words; none when it fits. */
function overrunOf(spent: Spent, budget: StrictBudget): string | undefined {
  const after = {
    tools: spent.tools + 1,
    optional: spent.optional + budget.optional,
    unions: spent.unions + budget.unions,
  };
  const words = {
    tools: 'strict tools',
    optional: 'optional parameters',
    unions: 'parameters with union types',
  };
  for (const kind of ['tools', 'optional', 'unions'] as const)
    if (after[kind] > ANTHROPIC_STRICT_LIMITS[kind])
      return `${after[kind]} ${words[kind]}, over the limit of ${ANTHROPIC_STRICT_LIMITS[kind]}`;
  return undefined;
}

/**
 * The set's strict requests against Anthropic's limits, as the config says: checked (a warning per
 * overrun), or planned and then checked. Without `anthropic-strict`, the tools as they are.
 */
export function budgetStrictRequests(
  tools: readonly PreparedTool[],
  settings: Pick<PrepareSettings, 'profiles' | 'profileOptions'>,
): { tools: PreparedTool[]; warnings: Problem[] } {
  if (!settings.profiles.includes(STRICT)) return { tools: [...tools], warnings: [] };
  const options = settings.profileOptions[STRICT];
  const planned =
    options?.budget === 'plan' ? planStrictRequests(tools, options) : { tools: [...tools], warnings: [] };
  return {
    tools: planned.tools,
    warnings: [...planned.warnings, ...strictRequestOverruns(planned.tools, options)],
  };
}

/**
 * `budget: 'plan'`: the tools that stay strict, taken in the planning order while every request
 * that carries one still fits `ANTHROPIC_STRICT_LIMITS`; every other strict tool is sent as
 * `anthropic` (its document, `fallback` and the reason recorded, its digest made anew). A warning
 * says what the plan kept and what it sent as `anthropic`, request by request.
 */
function planStrictRequests(
  tools: readonly PreparedTool[],
  options: StrictOptions,
): { tools: PreparedTool[]; warnings: Problem[] } {
  const strict = strictToolsOf(tools);
  const requests = requestsOf(strict, options.requests);
  const spent = new Map<string, Spent>(
    requests.map((request) => [request.name, { tools: 0, optional: 0, unions: 0 }]),
  );
  const reasons = new Map<string, string>();
  for (const tool of planningOrder(strict, options.order)) {
    const carrying = requests.filter((request) => request.tools.includes(tool.name));
    const overrun = carrying
      .map((request) => [request, overrunOf(spent.get(request.name) as Spent, tool.strictBudget)] as const)
      .find(([, words]) => words !== undefined);
    if (overrun) {
      reasons.set(
        tool.name,
        `the budget plan: with it, one request with ${overrun[0].name} would send ${overrun[1]}`,
      );
      continue;
    }
    for (const request of carrying) {
      const sum = spent.get(request.name) as Spent;
      sum.tools++;
      sum.optional += tool.strictBudget.optional;
      sum.unions += tool.strictBudget.unions;
    }
  }
  if (reasons.size === 0) return { tools: [...tools], warnings: [] };
  const fallen = [...reasons.keys()];
  const sums = requests.map((request) => {
    const sum = spent.get(request.name) as Spent;
    return `${request.name}: ${sum.tools} strict, ${sum.optional} optional, ${sum.unions} with union types`;
  });
  const warning: Problem = {
    severity: 'warning',
    code: 'profile-fallback',
    profile: STRICT,
    message: `the budget plan keeps ${strict.length - fallen.length} of ${plural(strict.length, 'strict tool')} strict (${sums.join('; ')}) and sends ${fallen.length} as anthropic: ${fallen.join(', ')}`,
    hint: `the limits per request are ${ANTHROPIC_STRICT_LIMITS.tools} strict tools, ${ANTHROPIC_STRICT_LIMITS.optional} optional parameters, ${ANTHROPIC_STRICT_LIMITS.unions} with union types; profileOptions['anthropic-strict'].order chooses which stay strict`,
  };
  return {
    tools: tools.map((tool) => {
      const reason = reasons.get(tool.name);
      return reason === undefined ? tool : asAnthropic(tool, reason);
    }),
    warnings: [warning],
  };
}

/** The tool with its `anthropic-strict` entry sent as `anthropic` instead, for `reason`. */
function asAnthropic(tool: PreparedTool, reason: string): PreparedTool {
  const { $schema: _schema, ...document } = tool.inputSchema.mcp;
  const { inputSchema } = FALLBACK_PROJECTIONS.anthropic({
    tool: tool.name,
    document,
    // The strict document was made from the same root, of which `anthropic` asks no more.
    report: (finding) => {
      throw new Error(
        `[toolprep] this is a bug in toolprep: tool "${tool.name}" has an anthropic-strict document but not an anthropic one: ${finding.message}`,
      );
    },
  });
  const { digest: _digest, ...rest } = tool;
  const prepared = {
    ...rest,
    profiles: { ...rest.profiles, [STRICT]: { inputSchema, fallback: 'anthropic' as const, reason } },
  };
  return deepFreeze({ ...prepared, digest: digestOf(prepared) });
}
