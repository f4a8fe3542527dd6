import { createRequire } from 'node:module';
import type * as TsMorph from 'ts-morph';
import { createModuleResolver, type ResolveModule } from './resolve-module.js';

// ts-morph bundles its own TypeScript; loading it through require is much faster than import().
let tsMorph: typeof TsMorph | undefined;
function loadTsMorph(): typeof TsMorph {
  tsMorph ??= createRequire(import.meta.url)('ts-morph') as typeof TsMorph;
  return tsMorph;
}

/** The modules one discovery run reads, each parsed once (syntax only), and how imports resolve. */
export interface SourceProject {
  readonly root: string;
  readonly morph: typeof TsMorph;
  readonly resolve: ResolveModule;
  /** A module read from disk, parsed the first time it is asked for. */
  sourceAt(file: string): TsMorph.SourceFile;
  /** A file's text parsed, in place of what was parsed of it before. */
  parse(file: string, text: string): TsMorph.SourceFile;
}

export function createSourceProject(root: string): SourceProject {
  const morph = loadTsMorph();
  const resolve = createModuleResolver(root, morph.ts);
  const project = new morph.Project({
    useInMemoryFileSystem: false,
    skipAddingFilesFromTsConfig: true,
    compilerOptions: { allowJs: true, noResolve: true },
  });
  return {
    root,
    morph,
    resolve,
    sourceAt: (file) => project.getSourceFile(file) ?? project.addSourceFileAtPath(file),
    parse: (file, text) => project.createSourceFile(file, text, { overwrite: true }),
  };
}
