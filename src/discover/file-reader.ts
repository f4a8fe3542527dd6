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
import { mayHoldContracts } from './pre-filter.js';
import { createSourceProject } from './source-project.js';

export interface FileReader {
  discover(file: string): Omit<FileDiscovery, 'stamp'>;
}

/**
 * Reads files for their contracts, with one parsed project for the whole run: a file past the
 * pre-filter is parsed, and the modules outside `included` it re-exports are followed.
 */
export function createFileReader(root: string, included: ReadonlySet<string>, stampOf: StampOf): FileReader {
  const sources = createSourceProject(root);
  const { morph, resolve, sourceAt } = sources;
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

  return {
    discover(file) {
      const text = readFileSync(file, 'utf8');
      if (!mayHoldContracts(text))
        return { refs: [], warnings: [], problems: [], parsed: false, consulted: [], foreignExports: {} };
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
    },
  };
}
