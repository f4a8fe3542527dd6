import path from 'node:path';
import type { ResolvedToolprepConfig } from '../config/options.js';
import { prepareSettingsOf } from '../config/options-schema.js';
import { isToolContract } from '../contract/define-tool.js';
import type { ContractRef } from '../discover/find-contracts.js';
import type { EmittableTool } from '../emit/manifest.js';
import type { LoadedModule } from '../load/load-modules.js';
import { prepareTool } from '../prepare/prepare-tool.js';
import { budgetStrictRequests } from '../prepare/profiles/request-budget.js';
import { type DeclaredDisclosure, declaredDisclosureOf } from '../prepare/surface-arrangement.js';
import { countedToolSize } from '../prepare/tool-size.js';
import { type DeclaredView, declaredViewOf } from '../prepare/view-declaration.js';
import { exportPath } from '../shared/build/export-path.js';
import { type Problem, placed, ToolprepError } from '../shared/build/problems.js';
import type { TokenCounter } from '../shared/build/token-counter.js';
import { isPlainObject } from '../shared/run/is-record.js';

/** A prepared tool with the export it came from. */
export type FoundTool = EmittableTool & {
  readonly ref: ContractRef;
  /** What the contract says of its group and loading, for the set-wide arrangement. */
  readonly declared: DeclaredDisclosure;
  /** Rules its parser enforces that its documents do not show, as many as a short pass found. */
  readonly hidden: number;
  /** The contract's `view`, checked: built with the set, after every tool is prepared. */
  readonly view?: DeclaredView;
};

/** A found tool before its size is counted (`sizeFoundTools`). */
export type UnsizedTool = Omit<FoundTool, 'size'>;

/** Node's errors for a module it could not find or load: a loading problem, not a module's own throw. */
const NODE_LOADER_CODES = new Set([
  'ERR_UNKNOWN_FILE_EXTENSION',
  'ERR_MODULE_NOT_FOUND',
  'ERR_PACKAGE_PATH_NOT_EXPORTED',
  'ERR_UNSUPPORTED_DIR_IMPORT',
]);

/** Prepares the contracts one loaded file exports; every problem is located at its export. */
export function prepareFile(
  refs: readonly ContractRef[],
  module: LoadedModule | undefined,
  config: ResolvedToolprepConfig,
  foreignExports: readonly string[] = [],
): { tools: UnsizedTool[]; problems: Problem[]; warnings: Problem[] } {
  const tools: UnsizedTool[] = [];
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const [first] = refs;
  if (!module?.exports) {
    const cause = module?.error instanceof Error ? module.error.message : String(module?.error);
    // Node's loader says what it could not load and why; only a module's own throw hints at effects.
    const nodeCode = (module?.error as { code?: unknown } | undefined)?.code;
    const fromLoader = typeof nodeCode === 'string' && NODE_LOADER_CODES.has(nodeCode);
    problems.push({
      severity: 'error',
      code: 'load-threw',
      file: first?.file,
      message: `threw while loading: ${cause}`,
      ...(fromLoader ? {} : { hint: 'contract modules must be free of side effects' }),
    });
    return { tools, problems, warnings };
  }
  for (const ref of refs) {
    const contract = contractAt(module.exports, ref);
    if (!isToolContract(contract)) {
      // A factory may make other things than contracts: only what it makes as one is a tool.
      if (ref.fromFactory) continue;
      problems.push({
        severity: 'error',
        code: 'not-a-contract-when-loaded',
        file: ref.file,
        line: ref.line,
        message: `export "${exportPath(ref.exportName, ref.member)}" is not a tool contract when loaded`,
        hint: 'export the defineTool() result itself',
      });
      continue;
    }
    const exportName = defaultNameOf(ref);
    try {
      const prepared = prepareTool(contract, {
        exportName,
        description: ref.jsdoc,
        ...prepareSettingsOf(config),
        warn: (problem) => warnings.push(placed(problem, ref.file, ref.line)),
      });
      const viewProblems: Problem[] = [];
      const view = declaredViewOf(prepared.name, contract, viewProblems);
      problems.push(...viewProblems.map((problem) => placed(problem, ref.file, ref.line)));
      tools.push({
        ...(view ? { view } : {}),
        prepared,
        file: ref.file,
        exportName: ref.exportName,
        member: ref.member,
        ...(contract.intents === undefined
          ? {}
          : { intents: contract.intents.map((intent) => intent.trim()) }),
        ref,
        declared: declaredDisclosureOf(contract),
        hidden: 0,
      });
    } catch (error) {
      if (!(error instanceof ToolprepError)) throw error;
      problems.push(...error.problems.map((problem) => placed(problem, ref.file, ref.line)));
    }
  }
  problems.push(...unnamedContracts(refs, module.exports, foreignExports));
  return { tools, problems, warnings };
}

/**
 * Contracts the module's exports hold (at any depth of plain objects and lists) that discovery did
 * not name, leaving out what comes from other modules: never a tool dropped without a word.
 */
function unnamedContracts(
  refs: readonly ContractRef[],
  exports: Record<string, unknown>,
  foreignExports: readonly string[],
): Problem[] {
  if (foreignExports.includes('*')) return [];
  const named = new Set(refs.map((ref) => contractAt(exports, ref)));
  const [first] = refs;
  const problems: Problem[] = [];
  const seen = new Set<unknown>();
  const walk = (exportName: string, members: (string | number)[], value: unknown): void => {
    if (isToolContract(value)) {
      if (named.has(value)) return;
      named.add(value);
      problems.push({
        severity: 'error',
        code: 'unnamed-contract',
        file: first?.file,
        message: `export "${exportPath(exportName, ...members)}" holds a defineTool() contract that discovery did not find, so it would not be a tool`,
        hint: 'export it as `export const name = defineTool(…)`, in an exported object or list literal, or from a tool factory of the project (a function that calls defineTool)',
      });
      return;
    }
    if (seen.has(value) || !(Array.isArray(value) || isPlainObject(value))) return;
    seen.add(value);
    for (const [member, held] of Object.entries(value))
      walk(exportName, [...members, Array.isArray(value) ? Number(member) : member], held);
  };
  for (const [exportName, value] of Object.entries(exports))
    if (!foreignExports.includes(exportName)) walk(exportName, [], value);
  return problems;
}

/** What names a contract without a `name`: the object's key, the export's name, or a default export's file name. */
function defaultNameOf(ref: ContractRef): string | undefined {
  if (ref.member !== undefined) return typeof ref.member === 'string' ? ref.member : undefined;
  if (ref.exportName !== 'default') return ref.exportName;
  // The file's name, its words joined as an export's would be: read-file.ts → read_file.
  return path.posix
    .basename(ref.file)
    .replace(/\.[^.]+$/, '')
    .replace(/[^A-Za-z0-9]+/g, '_');
}

/** The value a reference names in a module's exports: an export, or a member of one. */
export function contractAt(exports: Record<string, unknown>, ref: ContractRef): unknown {
  const held = exports[ref.exportName];
  if (ref.member === undefined) return held;
  return typeof held === 'object' && held !== null
    ? (held as Record<string | number, unknown>)[ref.member]
    : undefined;
}

/** `src/a.ts:4 (searchFiles)`: where a contract is, for a message naming several. */
function exportPlace(ref: ContractRef): string {
  return `${ref.file}:${ref.line} (${exportPath(ref.exportName, ref.member)})`;
}

/** A name used by several tools is one problem, placed at the first and naming every place. */
export function duplicateNames(tools: readonly FoundTool[]): Problem[] {
  const byName = new Map<string, ContractRef[]>();
  for (const { prepared, ref } of tools)
    byName.set(prepared.name, [...(byName.get(prepared.name) ?? []), ref]);
  return [...byName].flatMap(([name, refs]): Problem[] => {
    const [first] = refs;
    if (!first || refs.length < 2) return [];
    return [
      {
        severity: 'error',
        code: 'duplicate-name',
        file: first.file,
        line: first.line,
        tool: name,
        message: `the name "${name}" is used by ${refs.length} tools: ${refs.map((other) => `${exportPlace(other)}`).join(', ')}`,
        hint: 'give all but one of them another `name`',
      },
    ];
  });
}

/** The tools with their sizes, each counted by `counter` (on its thread, while this one goes on). */
export async function sizeFoundTools<Tool extends UnsizedTool>(
  tools: readonly Tool[],
  counter: TokenCounter,
): Promise<(Tool & Pick<FoundTool, 'size'>)[]> {
  const sizes = await Promise.all(tools.map((tool) => countedToolSize(tool.prepared, counter)));
  return tools.map((tool, index) => ({ ...tool, size: sizes[index] as FoundTool['size'] }));
}

/**
 * The found tools through `budgetStrictRequests` (Anthropic strict tool use limits each request,
 * summed over its strict tools: a warning, or with `budget: 'plan'` the tools that do not fit sent
 * as `anthropic`), each changed tool's size measured anew.
 */
export async function budgetFoundStrictRequests<Tool extends FoundTool>(
  tools: readonly Tool[],
  config: ResolvedToolprepConfig,
  counter: TokenCounter,
): Promise<{ tools: Tool[]; warnings: Problem[] }> {
  const planned = budgetStrictRequests(
    tools.map((tool) => tool.prepared),
    config,
  );
  return {
    tools: await Promise.all(
      tools.map(async (tool, index) => {
        const prepared = planned.tools[index] ?? tool.prepared;
        return prepared === tool.prepared
          ? tool
          : { ...tool, prepared, size: await countedToolSize(prepared, counter) };
      }),
    ),
    warnings: planned.warnings,
  };
}

/** The config's token budget: each tool over its share, and the set over its total, by name. */
export function budgetOverruns(
  tools: readonly FoundTool[],
  budget: { readonly tool?: number; readonly total?: number },
): Problem[] {
  const problems: Problem[] = [];
  const { tool: perTool, total } = budget;
  if (perTool !== undefined)
    for (const { prepared, size, ref } of tools)
      if (size.tokens > perTool)
        problems.push({
          severity: 'error',
          code: 'over-budget',
          file: ref.file,
          line: ref.line,
          tool: prepared.name,
          message: `${size.tokens} tokens as a model sees it, over the budget of ${perTool} per tool`,
          hint: 'shorten its descriptions or split the tool, or raise budget.tool',
        });
  const sum = tools.reduce((all, { size }) => all + size.tokens, 0);
  if (total !== undefined && sum > total) {
    const largest = [...tools]
      .sort((a, b) => b.size.tokens - a.size.tokens)
      .slice(0, 5)
      .map(({ prepared, size }) => `${prepared.name} ${size.tokens}`);
    problems.push({
      severity: 'error',
      code: 'over-budget',
      message: `${sum} tokens in all ${tools.length} tools, over the budget of ${total} (largest: ${largest.join(', ')})`,
      hint: 'shorten the largest, serve fewer tools, or raise budget.total',
    });
  }
  return problems;
}
