import type { ResolvedToolprepConfig } from '../config/options.js';
import type { ToolContract } from '../contract/types.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import { GROUP_NAME, type ToolGroup } from '../manifest/tool-set.js';
import { deepFreeze, digestOf } from '../shared/build/canonical-json.js';
import { GenerationalMemo } from '../shared/build/generational-memo.js';
import type { Problem } from '../shared/build/problems.js';
import { applyAccessRules } from './access.js';
import { namespaceSizeWarnings } from './openai-namespaces.js';
import { matchingEntry, namePattern } from './profiles/choices.js';

/** What a contract says of its place in a large set, kept beside its prepared tool (and its cache entry). */
export interface DeclaredDisclosure {
  readonly group?: string;
  readonly loading?: 'eager' | 'deferred';
}

/** A tool as the set-wide arrangement reads it. */
export interface ArrangeableTool {
  readonly prepared: PreparedTool;
  readonly declared?: DeclaredDisclosure;
  /** Its `tools/list` entry's bytes and tokens: the set's total decides the default loading. */
  readonly bytes: number;
  /** Counted only when the bytes do not decide (a token is a byte or more). */
  readonly tokens: () => number;
  /** Relative to the root, with `/`: its folder may name its group. None for contracts at hand. */
  readonly file?: string;
  readonly line?: number;
}

export type SurfaceSettings = Pick<ResolvedToolprepConfig, 'groups' | 'loading' | 'access'>;

export interface SurfaceArrangement {
  /** The tools in the order given, each with its groups, loading and access; the same object when unchanged. */
  readonly tools: readonly PreparedTool[];
  /** The groups, by name; none when the project has none. */
  readonly groups: readonly ToolGroup[];
  readonly problems: readonly Problem[];
  readonly warnings: readonly Problem[];
}

/** Where the config is, for a problem in it. */
const CONFIG = 'toolprep.config.ts';

export function declaredDisclosureOf(contract: ToolContract): DeclaredDisclosure {
  return {
    ...(contract.group === undefined ? {} : { group: contract.group }),
    ...(contract.loading === undefined ? {} : { loading: contract.loading }),
  };
}

/**
 * The group a file's folder names: the folder right under a `tools` folder
 * (`src/tools/issues/create.ts` → `issues`); none for a file directly in `tools` or elsewhere.
 */
function folderGroupOf(file: string): { readonly group: string; readonly folder: string } | undefined {
  const parts = file.split('/');
  const at = parts.lastIndexOf('tools', parts.length - 3);
  const group = at === -1 ? undefined : parts[at + 1];
  return group === undefined ? undefined : { group, folder: parts.slice(0, at + 2).join('/') };
}

/**
 * The surface a client meets, decided over the whole set once every tool is prepared: each tool's
 * groups (its own: the contract's `group`, else its folder's; then those the config adds),
 * whether it is loaded on the first turn (docs/guide/large-tool-sets.md), and who may call it
 * (the contract's `scopes` with the config's `access`, which may name groups). `describeFolder` gives a
 * group folder's description (its `index.ts` doc comment) for a group the config does not describe.
 * `memo` keeps each tool changed here between runs, by its digest and its arrangement.
 */
export function arrangeSurface(
  tools: readonly ArrangeableTool[],
  settings: SurfaceSettings,
  describeFolder: (folder: string) => string | undefined = () => undefined,
  memo: GenerationalMemo<PreparedTool> = new GenerationalMemo(),
): SurfaceArrangement {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const folders = new Map<string, string>();
  const groupsOf = tools.map((tool) => {
    const fromFolder = tool.file === undefined ? undefined : folderGroupOf(tool.file);
    if (tool.declared?.group === undefined && fromFolder) {
      if (!GROUP_NAME.test(fromFolder.group)) {
        problems.push({
          severity: 'error',
          code: 'invalid-group',
          file: tool.file,
          line: tool.line,
          tool: tool.prepared.name,
          field: 'group',
          message: `its folder "${fromFolder.folder}" names the group "${fromFolder.group}", which is not a group name (words of a-z and 0-9 joined by single hyphens, at most 64 characters)`,
          hint: 'rename the folder, or give the contract a `group`',
        });
        return [];
      }
      if (!folders.has(fromFolder.group)) folders.set(fromFolder.group, fromFolder.folder);
    }
    const own = tool.declared?.group ?? fromFolder?.group;
    return own === undefined ? [] : [own];
  });

  for (const [group, { tools: patterns }] of Object.entries(settings.groups))
    for (const pattern of patterns) {
      const matches = namePattern(pattern);
      let matched = false;
      tools.forEach((tool, index) => {
        if (!matches(tool.prepared.name)) return;
        matched = true;
        const groups = groupsOf[index] as string[];
        if (!groups.includes(group)) groups.push(group);
      });
      if (!matched)
        warnings.push({
          severity: 'warning',
          code: 'name-matches-nothing',
          file: CONFIG,
          field: `groups.${group}.tools`,
          message: `"${pattern}" names no tool`,
        });
    }

  const names = new Set(groupsOf.flat());
  for (const group of Object.keys(settings.groups))
    if (!names.has(group))
      problems.push({
        severity: 'error',
        code: 'group-without-tools',
        file: CONFIG,
        field: `groups.${group}`,
        message: `the group "${group}" has no tools`,
        hint: 'name its tools in `tools`, put them in a folder of that name under tools/, or give them `group`',
      });
  if (names.size > 0)
    tools.forEach((tool, index) => {
      if ((groupsOf[index] as string[]).length > 0) return;
      problems.push({
        severity: 'error',
        code: 'tool-without-group',
        file: tool.file,
        line: tool.line,
        tool: tool.prepared.name,
        field: 'group',
        message: `is in no group, though the project has groups (${[...names].sort().join(', ')})`,
        hint: 'move it to a folder under tools/, give it `group`, or name it in a group of the config',
      });
    });

  const groups = [...names].sort().map((name): ToolGroup => {
    const folder = folders.get(name);
    const description =
      settings.groups[name]?.description ?? (folder === undefined ? undefined : describeFolder(folder));
    if (description === undefined)
      warnings.push({
        severity: 'warning',
        code: 'group-without-description',
        file: folder === undefined ? CONFIG : `${folder}/index.ts`,
        field: `groups.${name}`,
        message: `the group "${name}" has no description`,
        hint:
          folder === undefined
            ? `describe it in the config: groups: { '${name}': { description: '…' } }`
            : `write a /** … */ comment at the top of ${folder}/index.ts, or describe it in the config's groups`,
      });
    return { name, ...(description === undefined ? {} : { description }) };
  });

  const loadingOf = loadingDecider(tools, settings.loading, problems, warnings);
  const accessOf = applyAccessRules(
    tools.map(({ prepared, file, line }, index) => ({
      name: prepared.name,
      groups: groupsOf[index] as string[],
      ...(prepared.access ? { access: prepared.access } : {}),
      ...(file === undefined ? {} : { file }),
      ...(line === undefined ? {} : { line }),
    })),
    settings.access,
    problems,
    warnings,
  );
  const arranged = tools.map((tool, index) => {
    const groups = groupsOf[index] as string[];
    const loading = loadingOf(tool);
    const access = accessOf[index];
    const sameAccess = JSON.stringify(access) === JSON.stringify(tool.prepared.access);
    if (groups.length === 0 && loading === 'eager' && sameAccess) return tool.prepared;
    // The tool's digest and its arrangement decide the new digest: the whole tool's canonical
    // text, digested again, once (past a few hundred tools, every tool is deferred).
    const key = `${tool.prepared.digest}\u0000${JSON.stringify([groups, loading, access ?? null])}`;
    return memo.take(key, () => {
      const { digest: _digest, access: _access, ...rest } = tool.prepared;
      const disclosed = {
        ...rest,
        ...(groups.length > 0 ? { groups } : {}),
        ...(loading === 'deferred' ? { loading } : {}),
        ...(access ? { access } : {}),
      };
      return deepFreeze({ ...disclosed, digest: digestOf(disclosed) });
    });
  });
  warnings.push(...namespaceSizeWarnings(arranged));
  return { tools: arranged, groups, problems, warnings };
}

/**
 * Each tool's loading: the config's `eager` and `deferred` first, then the contract's `loading`,
 * then the set's size: every tool eager while the whole `tools/list` is at most `deferAbove`
 * tokens (a client loses little by loading it), deferred past it.
 */
function loadingDecider(
  tools: readonly ArrangeableTool[],
  settings: SurfaceSettings['loading'],
  problems: Problem[],
  warnings: Problem[],
): (tool: ArrangeableTool) => 'eager' | 'deferred' {
  const bytes = tools.reduce((sum, tool) => sum + tool.bytes, 0);
  const over =
    bytes > settings.deferAbove && tools.reduce((sum, tool) => sum + tool.tokens(), 0) > settings.deferAbove;
  const byDefault = over ? 'deferred' : 'eager';
  const chosen: Record<string, 'eager' | 'deferred'> = {};
  for (const loading of ['eager', 'deferred'] as const)
    for (const pattern of settings[loading]) {
      if (chosen[pattern] !== undefined && chosen[pattern] !== loading)
        problems.push({
          severity: 'error',
          code: 'config-invalid-option',
          file: CONFIG,
          field: 'loading',
          message: `"${pattern}" is named both in loading.eager and in loading.deferred`,
        });
      chosen[pattern] = loading;
      const matches = namePattern(pattern);
      if (!tools.some((tool) => matches(tool.prepared.name)))
        warnings.push({
          severity: 'warning',
          code: 'name-matches-nothing',
          file: CONFIG,
          field: `loading.${loading}`,
          message: `"${pattern}" names no tool`,
        });
    }
  return (tool) => matchingEntry(chosen, tool.prepared.name)?.[1] ?? tool.declared?.loading ?? byDefault;
}
