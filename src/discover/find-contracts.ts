import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TsMorph from 'ts-morph';
import { fileStamp, type StampOf } from '../shared/file-stamp.js';
import type { Problem } from '../shared/problems.js';
import { projectPath } from '../shared/project-path.js';
import { createModuleResolver } from './resolve-module.js';

/** A contract export found in source text: where it is and what JSDoc says about it. */
export interface ContractRef {
  /** Relative to the root, with forward slashes. */
  readonly file: string;
  /** The export's name; `default` for a default export. */
  readonly exportName: string;
  readonly line: number;
  readonly jsdoc?: string;
}

export interface Discovery {
  readonly refs: readonly ContractRef[];
  readonly warnings: readonly Problem[];
  /** Files read past the pre-filter. */
  readonly parsed: number;
}

/** What discovery found in one file, and what it read to find it. */
export interface FileDiscovery {
  /** The file's size and modification time when it was read. */
  readonly stamp: string;
  readonly refs: readonly ContractRef[];
  readonly warnings: readonly Problem[];
  readonly parsed: boolean;
  /** The local modules its imports were followed into (barrels), with their stamps. */
  readonly consulted: readonly { readonly file: string; readonly stamp: string }[];
}

/** Per-file results a long-lived caller keeps between runs, so that only changed files are parsed. */
export type DiscoveryMemo = Map<string, FileDiscovery>;

const PACKAGE = 'toolprep';
const FACTORY = 'defineTool';

// ts-morph bundles its own TypeScript; loading it through require is much faster than import().
let tsMorph: typeof TsMorph | undefined;
function loadTsMorph(): typeof TsMorph {
  tsMorph ??= createRequire(import.meta.url)('ts-morph') as typeof TsMorph;
  return tsMorph;
}

/**
 * Finds exported `defineTool(...)` results in the given files, reading source text only: imports
 * of `defineTool` from "toolprep" (renamed, or through a namespace, or through a local barrel that
 * re-exports it) are followed; a local function of the same name is not a tool. With a memo, a file
 * whose stamp and consulted barrels are unchanged since the last run is not read again.
 */
export function findContracts(
  root: string,
  files: readonly string[],
  memo: DiscoveryMemo = new Map(),
  stampOf: StampOf = fileStamp,
): Discovery {
  let reader: FileReader | undefined;
  const wanted = new Set(files);
  for (const file of memo.keys()) if (!wanted.has(file)) memo.delete(file);
  for (const file of files) {
    const previous = memo.get(file);
    const stamp = stampOf(file);
    const current =
      previous?.stamp === stamp &&
      previous.consulted.every((barrel) => stampOf(barrel.file) === barrel.stamp);
    if (current) continue;
    reader ??= createFileReader(root, wanted, stampOf);
    memo.set(file, { stamp, ...reader.discover(file) });
  }
  const found = files.map((file) => memo.get(file) as FileDiscovery);
  // Two barrels may re-export one file outside `include`: its tools are found once.
  const unique = new Map(
    found.flatMap((entry) => entry.refs).map((ref) => [`${ref.file}#${ref.exportName}`, ref]),
  );
  const refs = [...unique.values()].sort((a, b) => compare(a.file, b.file) || a.line - b.line);
  return {
    refs,
    warnings: found.flatMap((entry) => entry.warnings),
    parsed: found.filter((entry) => entry.parsed).length,
  };
}

interface FileReader {
  discover(file: string): Omit<FileDiscovery, 'stamp'>;
}

/** A re-export with a module specifier: `export * from '…'`, `export { a } from '…'`. */
const RE_EXPORT = /export\s*(\*|\{|type\s*\{)[^;]*?from\s*['"]/;

function createFileReader(root: string, included: ReadonlySet<string>, stampOf: StampOf): FileReader {
  const { Project, Node, SyntaxKind, ts } = loadTsMorph();
  const resolve = createModuleResolver(root, ts);
  const project = new Project({
    useInMemoryFileSystem: false,
    skipAddingFilesFromTsConfig: true,
    compilerOptions: { allowJs: true, noResolve: true },
  });
  /** Per barrel: whether it gives toolprep's defineTool, and every local module that answer read. */
  const barrels = new Map<string, { provides: boolean; chain: readonly string[] }>();

  const sourceAt = (file: string): TsMorph.SourceFile =>
    project.getSourceFile(file) ?? project.addSourceFileAtPath(file);

  /** Does this module specifier, seen from `fromFile`, give toolprep's defineTool? */
  const providesFactory = (
    specifier: string,
    fromFile: string,
    consulted: Set<string>,
    seen = new Set<string>(),
  ): boolean => {
    if (specifier === PACKAGE) return true;
    const target = resolve(specifier, fromFile);
    if (!target || seen.has(target)) return false;
    seen.add(target);
    const known = barrels.get(target);
    if (known) {
      for (const file of known.chain) consulted.add(file);
      return known.provides;
    }
    const chain = new Set<string>([target]);
    const provides = sourceAt(target)
      .getExportDeclarations()
      .some((declaration) => {
        const from = declaration.getModuleSpecifierValue();
        if (from === undefined || !providesFactory(from, target, chain, seen)) return false;
        const named = declaration.getNamedExports();
        return named.length === 0
          ? declaration.getNamespaceExport() === undefined
          : named.some(
              (specifierNode) =>
                (specifierNode.getAliasNode()?.getText() ?? specifierNode.getName()) === FACTORY,
            );
      });
    barrels.set(target, { provides, chain: [...chain] });
    for (const file of chain) consulted.add(file);
    return provides;
  };

  /**
   * The contracts a module exports, and those of every module outside `include` it re-exports
   * (a barrel reaching contracts through an alias or a workspace package), found where defined.
   */
  const contractsIn = (
    source: TsMorph.SourceFile,
    consulted: Set<string>,
    visited: Set<string>,
  ): { refs: ContractRef[]; warnings: Problem[] } => {
    const file = source.getFilePath();
    const { refs, warnings } = contractsDefinedIn(source, consulted);
    for (const declaration of source.getExportDeclarations()) {
      const specifier = declaration.getModuleSpecifierValue();
      if (specifier === undefined || declaration.isTypeOnly() || declaration.getNamespaceExport()) continue;
      const target = resolve(specifier, file);
      if (!target || included.has(target) || visited.has(target)) continue;
      visited.add(target);
      consulted.add(target);
      const reached = contractsIn(sourceAt(target), consulted, visited);
      const names = declaration.getNamedExports().map((named) => named.getName());
      refs.push(...reached.refs.filter((ref) => names.length === 0 || names.includes(ref.exportName)));
      warnings.push(...reached.warnings);
    }
    return { refs, warnings };
  };

  /** The exported `defineTool(...)` results written in this module. */
  const contractsDefinedIn = (
    source: TsMorph.SourceFile,
    consulted: Set<string>,
  ): { refs: ContractRef[]; warnings: Problem[] } => {
    const file = source.getFilePath();
    const relative = projectPath(root, file);
    const refs: ContractRef[] = [];
    const warnings: Problem[] = [];
    if (!source.getFullText().includes(FACTORY)) return { refs, warnings };
    const direct = new Set<string>();
    const namespaces = new Set<string>();
    for (const declaration of source.getImportDeclarations()) {
      if (
        declaration.isTypeOnly() ||
        !providesFactory(declaration.getModuleSpecifierValue(), file, consulted)
      )
        continue;
      const namespace = declaration.getNamespaceImport();
      if (namespace) namespaces.add(namespace.getText());
      for (const named of declaration.getNamedImports()) {
        if (named.getName() === FACTORY && !named.isTypeOnly())
          direct.add(named.getAliasNode()?.getText() ?? FACTORY);
      }
    }
    if (direct.size === 0 && namespaces.size === 0) return { refs, warnings };

    const exportedAs = exportNamesByLocal(source);
    for (const call of source.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const callee = call.getExpression();
      const isFactory = Node.isIdentifier(callee)
        ? direct.has(callee.getText())
        : Node.isPropertyAccessExpression(callee) &&
          callee.getName() === FACTORY &&
          namespaces.has(callee.getExpression().getText());
      if (!isFactory) continue;
      const line = call.getStartLineNumber();
      const holder = outermostExpression(call, Node);
      const parent = holder.getParent();
      let exportName: string | undefined;
      let documented: TsMorph.Node = holder;
      if (parent && Node.isExportAssignment(parent)) {
        exportName = 'default';
        documented = parent;
      } else if (parent && Node.isVariableDeclaration(parent)) {
        const statement = parent.getVariableStatement();
        if (statement) documented = statement;
        exportName = statement?.isExported() ? parent.getName() : exportedAs.get(parent.getName());
      }
      if (exportName === undefined) {
        warnings.push({
          severity: 'warning',
          code: 'not-exported',
          file: relative,
          line,
          message: 'defineTool() result is not exported, so it is not a tool: export it, or remove it',
        });
        continue;
      }
      refs.push({ file: relative, exportName, line, ...optionalJsDoc(documented) });
    }
    return { refs, warnings };
  };

  return {
    discover(file) {
      const text = readFileSync(file, 'utf8');
      if (!text.includes(FACTORY) && !RE_EXPORT.test(text))
        return { refs: [], warnings: [], parsed: false, consulted: [] };
      const consulted = new Set<string>();
      const source = project.createSourceFile(file, text, { overwrite: true });
      const { refs, warnings } = contractsIn(source, consulted, new Set([path.normalize(file)]));
      return {
        refs,
        warnings,
        parsed: true,
        consulted: [...consulted].map((barrel) => ({ file: barrel, stamp: stampOf(barrel) })),
      };
    },
  };
}

/** `export { local as name }` and `export default local`, by local name (the first export wins). */
function exportNamesByLocal(source: TsMorph.SourceFile): Map<string, string> {
  const names = new Map<string, string>();
  for (const declaration of source.getExportDeclarations()) {
    if (declaration.getModuleSpecifierValue() !== undefined) continue;
    for (const specifier of declaration.getNamedExports()) {
      const local = specifier.getNameNode().getText();
      if (!names.has(local)) names.set(local, specifier.getAliasNode()?.getText() ?? local);
    }
  }
  for (const assignment of source.getExportAssignments()) {
    const local = assignment.getExpression().getText();
    if (!assignment.isExportEquals() && !names.has(local)) names.set(local, 'default');
  }
  return names;
}

/** Climbs through parentheses, `as`, `satisfies` and `!` around the call. */
function outermostExpression(node: TsMorph.Node, Node: typeof TsMorph.Node): TsMorph.Node {
  let current = node;
  for (let parent = current.getParent(); parent; parent = current.getParent()) {
    if (
      Node.isParenthesizedExpression(parent) ||
      Node.isAsExpression(parent) ||
      Node.isSatisfiesExpression(parent) ||
      Node.isNonNullExpression(parent)
    ) {
      current = parent;
    } else break;
  }
  return current;
}

/** The description of the `/** … *\/` comment right before a node, without tags. */
function optionalJsDoc(node: TsMorph.Node): { jsdoc?: string } {
  const comment = node
    .getLeadingCommentRanges()
    .map((range) => range.getText())
    .filter((text) => text.startsWith('/**'))
    .at(-1);
  if (!comment) return {};
  const lines = comment
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*?\s?/, '').trimEnd());
  const tagAt = lines.findIndex((line) => line.startsWith('@'));
  const description = (tagAt === -1 ? lines : lines.slice(0, tagAt)).join('\n').trim();
  return description ? { jsdoc: description } : {};
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
