import path from 'node:path';
import type * as TsMorph from 'ts-morph';

type Ts = typeof TsMorph.ts;

/** Finds the source file a module specifier names, as the project's TypeScript does. */
export type ResolveModule = (specifier: string, fromFile: string) => string | undefined;

/** A project's compiler options and the files it holds (a tsconfig, or one it references). */
interface ConfigScope {
  readonly options: TsMorph.ts.CompilerOptions;
  readonly files: ReadonlySet<string>;
}

/**
 * Resolves specifiers with TypeScript's own module resolution and the project's tsconfig
 * (`paths`, `baseUrl`, `extends`, project references, package.json `imports`, and workspace
 * packages by name through their `exports`). Only a project's own source counts: a declaration
 * file or a file under node_modules is a package, not a module discovery reads.
 */
export function createModuleResolver(root: string, ts: Ts): ResolveModule {
  const scopes = configScopes(root, ts);
  const caches = new Map<ConfigScope | undefined, TsMorph.ts.ModuleResolutionCache>();
  // A file no referenced project holds takes the root's options (the first scope).
  const scopeOf = (file: string) =>
    scopes.find((scope) => scope.files.has(path.normalize(file))) ?? scopes[0];
  return (specifier, fromFile) => {
    const scope = scopeOf(fromFile);
    const options = resolutionOptions(scope?.options ?? {}, ts);
    let cache = caches.get(scope);
    if (!cache) {
      cache = ts.createModuleResolutionCache(root, (name) => name, options);
      caches.set(scope, cache);
    }
    const resolved = ts.resolveModuleName(specifier, fromFile, options, ts.sys, cache).resolvedModule;
    // A workspace package resolves through node_modules to its real path, outside it: it is source.
    if (!resolved) return undefined;
    const file = path.normalize(resolved.resolvedFileName);
    if (/\.d\.[cm]?ts$/.test(file) || file.split(path.sep).includes('node_modules')) return undefined;
    return file;
  };
}

/**
 * The project's options as a bundler resolves with them: whatever `moduleResolution` the project
 * names, specifiers written for NodeNext, for a bundler or with `paths` all resolve.
 */
function resolutionOptions(options: TsMorph.ts.CompilerOptions, ts: Ts): TsMorph.ts.CompilerOptions {
  return {
    ...options,
    allowJs: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    allowImportingTsExtensions: true,
    noEmit: true,
  };
}

/**
 * The root's tsconfig.json (with what it extends), then each project it references, recursively.
 * The files each holds are listed only when there are references to choose between: listing them
 * walks the project's folders, which a run should not pay for nothing.
 */
function configScopes(root: string, ts: Ts): ConfigScope[] {
  const first = ts.findConfigFile(root, ts.sys.fileExists, 'tsconfig.json');
  if (!first) return [];
  const parse = (configFile: string, listFiles: boolean) =>
    ts.getParsedCommandLineOfConfigFile(
      configFile,
      {},
      {
        ...ts.sys,
        ...(listFiles ? {} : { readDirectory: () => [] }),
        onUnRecoverableConfigFileDiagnostic: () => undefined,
      },
    );
  const rootConfig = parse(first, false);
  if (!rootConfig) return [];
  const scopes: ConfigScope[] = [{ options: rootConfig.options, files: new Set() }];
  const seen = new Set<string>([first]);
  const visit = (configFile: string) => {
    if (seen.has(configFile)) return;
    seen.add(configFile);
    const parsed = parse(configFile, true);
    if (!parsed) return;
    scopes.push({
      options: parsed.options,
      files: new Set(parsed.fileNames.map((file) => path.normalize(file))),
    });
    for (const reference of parsed.projectReferences ?? []) visit(ts.resolveProjectReferencePath(reference));
  };
  for (const reference of rootConfig.projectReferences ?? [])
    visit(ts.resolveProjectReferencePath(reference));
  return scopes;
}
