import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { OnResolveArgs, OnResolveResult, Plugin } from 'esbuild';

/** What Node cannot import and a bundler compiles: TypeScript, declaration files aside. */
const TYPESCRIPT = /\.(?:[cm]?ts|tsx)$/;
const DECLARATION = /\.d\.(?:[cm]?ts|tsx)$/;
/** A module specifier that names a package (or a `paths` alias): not relative, absolute or `#`. */
const BARE = /^[^./#]/;
/** Marks the loader's own resolution of a specifier, so that it does not come back here. */
const RESOLVING = Symbol('toolprep-resolving');

/**
 * Decides, for each package a bundled file imports, whether Node imports it at run time or it is
 * bundled. A specifier is resolved as Node resolves an `import` (the `import`, `node` and
 * `default` conditions of `exports`, then `main`), from the importing file, through symlinks to
 * the file's real path; then:
 * - a TypeScript file (`.ts`, `.tsx`, `.mts`, `.cts`: a workspace package that ships its sources)
 *   is bundled, since Node cannot run it, and its own imports are decided the same way from where
 *   it really is;
 * - a file outside node_modules that its package name does not hold (a tsconfig `paths` alias) is
 *   project source, bundled as relative imports are;
 * - any other file is the package's, left for Node to import: an installed package (under
 *   node_modules) imported by the project's own files by its specifier, so that Node resolves it
 *   exactly as at run time; anything else by its path, since the bundle sits under the project's
 *   node_modules/.cache, where neither another workspace package's dependencies (pnpm keeps them
 *   beside that package), nor the project's own name, nor a `paths` alias would resolve.
 * What cannot be resolved is left to Node by its specifier, and fails, if at all, when imported:
 * a contract module may import an optional package it does not need.
 */
export function packageImports(root: string): Plugin {
  const scopes = new PackageScopes();
  const rootScope = scopes.nearest(root);
  return {
    name: 'toolprep-package-imports',
    setup(build) {
      const decide = async (
        { path: specifier, importer, resolveDir, kind }: OnResolveArgs,
        fromProject: boolean,
      ): Promise<OnResolveResult> => {
        const resolved = await build.resolve(specifier, {
          importer,
          resolveDir,
          kind,
          pluginData: RESOLVING,
        });
        if (resolved.errors.length > 0 || resolved.external) return { path: specifier, external: true };
        const file = resolved.path;
        if (DECLARATION.test(file))
          return {
            errors: [
              {
                text: `"${specifier}" resolves to a declaration file, which holds no code to load (${file}): its package.json "exports" must name code under the "import" or "default" condition`,
              },
            ],
          };
        if (TYPESCRIPT.test(file)) return { path: file };
        const name = packageNameOf(specifier);
        const inNodeModules = file.split(path.sep).includes('node_modules');
        if (!inNodeModules && scopes.nameOf(file) !== name) return { path: file };
        if (inNodeModules && fromProject) return { path: specifier, external: true };
        return { path: pathToFileURL(file).href, external: true };
      };
      // The files of a folder import the same few packages: each is decided once per folder.
      const decided = new Map<string, Promise<OnResolveResult>>();
      build.onResolve({ filter: BARE }, (args) => {
        if (args.pluginData === RESOLVING || path.isAbsolute(args.path)) return undefined;
        const key = [args.path, args.resolveDir, args.kind].join('\0');
        let decision = decided.get(key);
        if (!decision) {
          const fromProject = args.importer !== '' && scopes.nearest(args.resolveDir) === rootScope;
          decision = decide(args, fromProject);
          decided.set(key, decision);
        }
        return decision;
      });
    },
  };
}

/** `@scope/name/sub/path` → `@scope/name`; `name/sub` → `name`. */
function packageNameOf(specifier: string): string {
  return specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');
}

interface PackageScope {
  readonly directory: string;
  readonly name?: string;
}

/** The package.json files that hold files, as Node finds them, read once per folder. */
class PackageScopes {
  private readonly byFolder = new Map<string, PackageScope | undefined>();

  /** The package.json nearest to `folder`, whatever it holds (Node's package scope). */
  nearest(folder: string): PackageScope | undefined {
    if (this.byFolder.has(folder)) return this.byFolder.get(folder);
    let scope: PackageScope | undefined;
    try {
      const { name } = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8')) as {
        name?: unknown;
      };
      scope = { directory: folder, name: typeof name === 'string' ? name : undefined };
    } catch {
      const parent = path.dirname(folder);
      scope = parent === folder ? undefined : this.nearest(parent);
    }
    this.byFolder.set(folder, scope);
    return scope;
  }

  /** The name of the package that holds `file`: the nearest package.json with a name. */
  nameOf(file: string): string | undefined {
    for (let scope = this.nearest(path.dirname(file)); scope; ) {
      if (scope.name !== undefined) return scope.name;
      const parent = path.dirname(scope.directory);
      scope = parent === scope.directory ? undefined : this.nearest(parent);
    }
    return undefined;
  }
}
