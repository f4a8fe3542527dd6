import { readFileSync } from 'node:fs';
import path from 'node:path';
import type * as TsMorph from 'ts-morph';
import type { StampOf } from '../shared/build/file-stamp.js';
import type { Problem } from '../shared/build/problems.js';
import { projectPath } from '../shared/build/project-path.js';
import type { ContractRef } from './contract-ref.js';
import { contractsDefinedIn } from './contracts-in-module.js';
import type { FileDiscovery } from './discovery-memo.js';
import { createFactoryTracer } from './factory-calls.js';
import { foreignExportsOf } from './foreign-exports.js';
import { createIncludedTargets } from './included-targets.js';
import { plainContracts } from './plain-contracts.js';
import { mayHoldContracts } from './pre-filter.js';
import { createSourceProject, type SourceProject } from './source-project.js';

export interface FileReader {
  discover(file: string): Omit<FileDiscovery, 'stamp'>;
}

/**
 * Reads files for their contracts: a plain contract file as text (`plainContracts`), any other
 * file past the pre-filter with one parsed project for the whole run, made (and TypeScript loaded)
 * when the first such file comes, and the modules outside `included` it re-exports followed.
 */
export function createFileReader(root: string, included: ReadonlySet<string>, stampOf: StampOf): FileReader {
  let full: ReturnType<typeof fullReader> | undefined;
  const isIncluded = createIncludedTargets(root, included);
  return {
    discover(file) {
      const text = readFileSync(file, 'utf8');
      if (!mayHoldContracts(text))
        return { refs: [], warnings: [], problems: [], parsed: false, consulted: [], foreignExports: {} };
      const relative = projectPath(root, file);
      const plain = plainContracts(text, relative);
      // A re-export of an included file is left to that file's own discovery, as the full way does.
      if (plain?.reExports.every((specifier) => isIncluded(specifier, file))) {
        const { refs } = plain;
        // What `foreignExportsOf` gives a plain file: it exports nothing that comes from elsewhere.
        const foreignExports = refs.length > 0 ? { [relative]: [] } : {};
        return { refs, warnings: [], problems: [], parsed: true, consulted: [], foreignExports };
      }
      full ??= fullReader(createSourceProject(root), included, stampOf);
      return full(file, text);
    },
  };
}

/** The full reading of a file, with the project's parsed modules, its imports and its re-exports followed. */
function fullReader(sources: SourceProject, included: ReadonlySet<string>, stampOf: StampOf) {
  const { root, morph, resolve, sourceAt } = sources;
  const tracer = createFactoryTracer(sources);

  /**
   * The contracts a module exports, and those of every module outside `include` it re-exports
   * (a barrel reaching contracts through an alias or a workspace package), found where defined.
   */
  const contractsIn = (
    source: TsMorph.SourceFile,
    consulted: Set<string>,
    visited: Set<string>,
    foreign: Record<string, readonly string[]>,
  ): { refs: ContractRef[]; warnings: Problem[]; problems: Problem[] } => {
    const file = source.getFilePath();
    const { refs, warnings, problems } = contractsDefinedIn(source, consulted, { root, morph, tracer });
    if (refs.length > 0) foreign[projectPath(root, file)] = foreignExportsOf(source, morph);
    for (const declaration of source.getExportDeclarations()) {
      const specifier = declaration.getModuleSpecifierValue();
      if (specifier === undefined || declaration.isTypeOnly() || declaration.getNamespaceExport()) continue;
      const target = resolve(specifier, file);
      if (!target || included.has(target) || visited.has(target)) continue;
      visited.add(target);
      consulted.add(target);
      const reached = contractsIn(sourceAt(target), consulted, visited, foreign);
      const names = declaration.getNamedExports().map((named) => named.getName());
      const taken = (ref: ContractRef) => names.length === 0 || names.includes(ref.exportName);
      refs.push(...reached.refs.filter(taken));
      // What the named re-export leaves out is not a tool, on purpose: the loader's walk skips it.
      const leftOut = reached.refs.filter((ref) => !taken(ref)).map((ref) => ref.exportName);
      const targetFile = projectPath(root, target);
      if (leftOut.length > 0) foreign[targetFile] = [...(foreign[targetFile] ?? []), ...leftOut];
      warnings.push(...reached.warnings);
      problems.push(...reached.problems);
    }
    return { refs, warnings, problems };
  };

  return (file: string, text: string): Omit<FileDiscovery, 'stamp'> => {
    const consulted = new Set<string>();
    const source = sources.parse(file, text);
    const foreignExports: Record<string, readonly string[]> = {};
    const { refs, warnings, problems } = contractsIn(
      source,
      consulted,
      new Set([path.normalize(file)]),
      foreignExports,
    );
    return {
      refs,
      warnings,
      problems,
      foreignExports,
      parsed: true,
      consulted: [...consulted].map((barrel) => ({ file: barrel, stamp: stampOf(barrel) })),
    };
  };
}
