import path from 'node:path';

/**
 * Where each folder of src/ (and plugin/) may import from. Data flows one way: discover → load →
 * prepare → emit → serve (runtime, tasks, surfaces); below them the floors every stage stands on (shared,
 * the manifest format, contracts, schema-library adapters); above them the orchestration
 * (config, generate, cli, plugin). The package's entry files may import anything.
 */
const FLOORS = ['shared/run', 'shared/json-schema', 'shared/build'];
const RUN_FLOORS = ['shared/run', 'shared/json-schema'];
const MCP_FLOORS = ['surfaces/mcp/wire', 'surfaces/mcp/service'];
/** MCP serving that imports no package at run time (the SDKs' types only): what every era shares, and toolprep's own 2026-07-28 server. */
const MCP_WITHOUT_PACKAGES = [
  'surfaces/mcp/wire',
  'surfaces/mcp/service',
  'surfaces/mcp/modern',
  'surfaces/mcp/compose',
];
const ALLOWED: Record<string, readonly string[]> = {
  'shared/run': [],
  'shared/json-schema': ['shared/run'],
  'shared/build': RUN_FLOORS,
  contract: [],
  manifest: ['contract', ...RUN_FLOORS],
  adapters: ['manifest', ...FLOORS],
  discover: FLOORS,
  load: [...FLOORS, 'manifest'],
  config: [...FLOORS, 'manifest', 'load', 'adapters', 'contract'],
  prepare: [...FLOORS, 'manifest', 'contract', 'adapters', 'config'],
  emit: [...FLOORS, 'manifest'],
  runtime: [...RUN_FLOORS, 'manifest', 'contract', 'adapters'],
  tasks: ['shared/run'],
  surfaces: [...RUN_FLOORS, 'runtime', 'manifest', 'tasks'],
  // MCP serving (docs/surfaces/mcp.md, "How it is built"): the wire and the tool service below
  // every era and binding; the 2026-07-28 server, the 2025 sessions and the SDK v2 binding on them;
  // the transports over all three; the entries (`toolprep/mcp`, `/web`, `/server`, `/v2`) on top.
  'surfaces/mcp/wire': [...RUN_FLOORS, 'manifest'],
  // The service renders results with the one renderer of content parts every surface uses.
  'surfaces/mcp/service': [...RUN_FLOORS, 'runtime', 'manifest', 'surfaces', 'surfaces/mcp/wire'],
  'surfaces/mcp/modern': [...RUN_FLOORS, 'runtime', 'manifest', 'tasks', ...MCP_FLOORS],
  // Tools registered with the SDK beside toolprep's on one McpServer, shared by both SDK bindings (0040).
  'surfaces/mcp/compose': MCP_FLOORS,
  'surfaces/mcp/legacy': [...RUN_FLOORS, 'runtime', 'manifest', ...MCP_FLOORS, 'surfaces/mcp/compose'],
  'surfaces/mcp/v2': [...RUN_FLOORS, 'runtime', 'manifest', ...MCP_FLOORS, 'surfaces/mcp/compose'],
  'surfaces/mcp/transport': [
    ...RUN_FLOORS,
    'runtime',
    ...MCP_FLOORS,
    'surfaces/mcp/modern',
    'surfaces/mcp/legacy',
    'surfaces/mcp/compose',
  ],
  'surfaces/mcp': [
    ...MCP_FLOORS,
    'surfaces/mcp/modern',
    'surfaces/mcp/legacy',
    'surfaces/mcp/v2',
    'surfaces/mcp/transport',
  ],
  // `toolprep/testing`: an in-memory client over the serving code of both eras, and a snapshot of the listing.
  testing: [
    ...RUN_FLOORS,
    'runtime',
    'manifest',
    ...MCP_FLOORS,
    'surfaces/mcp/modern',
    'surfaces/mcp/legacy',
  ],
  generate: [...FLOORS, 'manifest', 'contract', 'adapters', 'config', 'discover', 'load', 'prepare', 'emit'],
  cli: [...FLOORS, 'manifest', 'config', 'generate'],
  plugin: [...FLOORS, 'manifest', 'config', 'generate'],
};

/** Adapter files that run only at build time: the builders, which convert schemas with packages. */
const BUILD_SIDE_ADAPTER = /^adapters\/(builders\.ts|[^/]+\/build\.ts)$/;
/**
 * A run-time adapter (`toolprep/runtime/zod4`), which every server of that library loads at start:
 * it imports how to know the library's schemas (Zod's `identify.ts`, the Standard vendors'
 * `vendor.ts`) and loads the rest, the type table included, only when a refusal first needs it.
 */
const RUN_TIME_ADAPTER = /^adapters\/[^/]+\/runtime\.ts$/;
const LOADED_AT_START_BY_AN_ADAPTER = /^src\/adapters\/(zod3\/identify|zod4\/identify|standard\/vendor)\.ts$/;
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
  readonly dynamic?: boolean;
}

/** Static imports and re-exports (with whether only types are imported), and dynamic imports. */
export function importsOf(text: string): Import[] {
  const found: Import[] = [];
  for (const match of text.matchAll(/^\s*(?:import|export)\s+(type\s+)?[^'";]*?\bfrom\s+['"]([^'"]+)['"]/gm))
    found.push({ specifier: match[2] as string, typeOnly: match[1] !== undefined });
  for (const match of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm))
    found.push({ specifier: match[1] as string, typeOnly: false });
  for (const match of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g))
    found.push({ specifier: match[1] as string, typeOnly: false, dynamic: true });
  return found;
}

/**
 * The folder a file belongs to, for the table above: `prepare`, `plugin`, `shared/run`; undefined
 * for an entry.
 */
function folderOf(file: string): string | undefined {
  if (file.startsWith('plugin/')) return 'plugin';
  const [, folder, sub, rest, more] = file.split('/');
  if (folder === 'surfaces' && sub === 'mcp' && rest !== undefined)
    return more === undefined ? 'surfaces/mcp' : `surfaces/mcp/${rest}`;
  if (folder === 'shared' && rest !== undefined) return `shared/${sub}`;
  return sub === undefined ? undefined : folder;
}

/** Every import that goes against the table, or that brings build code into run-time code. */
export function layeringViolations(files: readonly SourceFile[]): string[] {
  const violations: string[] = [];
  for (const file of files) {
    const from = folderOf(file.path);
    if (from === undefined) continue;
    const local = file.path.replace(/^src\//, '');
    // What a server loads, in any JavaScript runtime: the runtime, the run-time side of the
    // adapters and the floors under them.
    const runsInServer =
      from === 'runtime' ||
      from === 'tasks' ||
      MCP_WITHOUT_PACKAGES.includes(from) ||
      RUN_FLOORS.includes(from) ||
      (from === 'adapters' && !BUILD_SIDE_ADAPTER.test(local));
    for (const { specifier, typeOnly, dynamic } of importsOf(file.text)) {
      if (!specifier.startsWith('.')) {
        if (runsInServer && !typeOnly)
          violations.push(
            `${file.path} imports ${specifier.startsWith('node:') ? 'the Node module' : 'the package'} "${specifier}": run-time code imports neither`,
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
      } else if (
        RUN_TIME_ADAPTER.test(local) &&
        to === 'adapters' &&
        !typeOnly &&
        !dynamic &&
        !LOADED_AT_START_BY_AN_ADAPTER.test(targetFile)
      ) {
        violations.push(
          `${file.path} imports ${target} at start: a run-time adapter loads how to know its schemas, the rest when first needed`,
        );
      }
    }
  }
  return violations;
}

/** Resolves a relative import of `file` to the source file it names. */
function resolveImport(file: string, specifier: string): string {
  return path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier)).replace(/\.js$/, '.ts');
}

/**
 * Every cycle among the files' relative imports, type-only imports included (a type cycle is a
 * cycle for a reader): each as the files around it, starting from the smallest path.
 */
export function importCycles(files: readonly SourceFile[]): string[][] {
  const edges = new Map<string, string[]>();
  for (const file of files)
    edges.set(
      file.path,
      importsOf(file.text)
        .filter(({ specifier }) => specifier.startsWith('.'))
        .map(({ specifier }) => resolveImport(file.path, specifier)),
    );
  // Tarjan's strongly connected components: a component of more than one file is a cycle.
  const cycles: string[][] = [];
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const visit = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) as number);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!edges.has(next)) continue;
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next))
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop() as string;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) cycles.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) visit(node);
  return cycles.sort((a, b) => (a[0] as string).localeCompare(b[0] as string));
}
