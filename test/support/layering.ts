import path from 'node:path';

/**
 * Where each folder of src/ (and plugin/) may import from. Data flows one way: discover → load →
 * prepare → emit → serve (runtime, surfaces); below them the floors every stage stands on (shared,
 * the manifest format, contracts, schema-library adapters); above them the orchestration
 * (config, generate, cli, plugin). The package's entry files may import anything.
 */
export const ALLOWED: Record<string, readonly string[]> = {
  shared: [],
  contract: [],
  manifest: ['contract'],
  adapters: ['manifest', 'shared'],
  discover: ['shared'],
  load: ['shared', 'manifest'],
  config: ['shared', 'manifest', 'load', 'adapters', 'contract'],
  prepare: ['shared', 'manifest', 'contract', 'adapters', 'config'],
  emit: ['shared', 'manifest'],
  runtime: ['shared', 'manifest', 'contract', 'adapters'],
  surfaces: ['shared', 'runtime', 'manifest'],
  generate: ['shared', 'manifest', 'contract', 'adapters', 'config', 'discover', 'load', 'prepare', 'emit'],
  cli: ['shared', 'manifest', 'config', 'generate'],
  plugin: ['shared', 'manifest', 'config', 'generate'],
};

/** Adapter files that run only at build time: the builders, which convert schemas with packages. */
const BUILD_SIDE_ADAPTER = /^adapters\/(builders\.ts|[^/]+\/build\.ts)$/;
/** Packages a server never loads: what the build uses. */
const BUILD_PACKAGES =
  /^(ts-morph|typescript|esbuild|unplugin|tinyglobby|diff|vite|rollup|rolldown|webpack)(\/|$)/;

export interface SourceFile {
  /** Relative to the repository: `src/prepare/prepare-tool.ts`, `plugin/index.ts`. */
  readonly path: string;
  readonly text: string;
}

interface Import {
  readonly specifier: string;
  readonly typeOnly: boolean;
}

/** Static imports and re-exports (with whether only types are imported), and dynamic imports. */
export function importsOf(text: string): Import[] {
  const found: Import[] = [];
  for (const match of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?[^'";]*?\bfrom\s+['"]([^'"]+)['"]/gm))
    found.push({ specifier: match[2] as string, typeOnly: match[1] !== undefined });
  for (const match of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm))
    found.push({ specifier: match[1] as string, typeOnly: false });
  for (const match of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g))
    found.push({ specifier: match[1] as string, typeOnly: false });
  return found;
}

/** The folder a file belongs to, for the table above: `prepare`, `plugin`; undefined for an entry. */
function folderOf(file: string): string | undefined {
  if (file.startsWith('plugin/')) return 'plugin';
  const [, folder, rest] = file.split('/');
  return rest === undefined ? undefined : folder;
}

/** Every import that goes against the table, or that brings build code into run-time code. */
export function layeringViolations(files: readonly SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    const from = folderOf(file.path);
    if (from === undefined) continue;
    const local = file.path.replace(/^src\//, '');
    // What a server loads: the runtime, and the run-time side of the adapters.
    const runsInServer = from === 'runtime' || (from === 'adapters' && !BUILD_SIDE_ADAPTER.test(local));
    for (const { specifier, typeOnly } of importsOf(file.text)) {
      if (!specifier.startsWith('.')) {
        if (runsInServer && !typeOnly && !specifier.startsWith('node:'))
          violations.push(
            `${file.path} imports the package "${specifier}": run-time code imports no package`,
          );
        else if (from === 'surfaces' && BUILD_PACKAGES.test(specifier))
          violations.push(`${file.path} imports the build package "${specifier}"`);
        continue;
      }
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file.path), specifier));
      const targetFile = target.replace(/\.js$/, '.ts');
      const to = folderOf(targetFile);
      if (to === undefined) {
        violations.push(`${file.path} imports ${target}, an entry of the package: import the module itself`);
      } else if (to !== from && !(ALLOWED[from] ?? []).includes(to)) {
        violations.push(
          `${file.path} imports ${target} (${from}/ may import from ${ALLOWED[from]?.join(', ') || 'nothing'})`,
        );
      } else if (runsInServer && BUILD_SIDE_ADAPTER.test(targetFile.replace(/^src\//, ''))) {
        violations.push(`${file.path} imports ${target}, build code, into code a server runs`);
      }
    }
  }
  return violations;
}
