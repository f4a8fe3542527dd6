import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TsMorph from 'ts-morph';
import { exportPath } from '../shared/build/export-path.js';
import { fileStamp, type StampOf } from '../shared/build/file-stamp.js';
import type { Problem } from '../shared/build/problems.js';
import { projectPath } from '../shared/build/project-path.js';
import { createModuleResolver } from './resolve-module.js';

/** A contract export found in source text: where it is and what JSDoc says about it. */
export interface ContractRef {
  /** Relative to the root, with forward slashes. */
  readonly file: string;
  /** The export's name; `default` for a default export. */
  readonly exportName: string;
  /** Where in the export the contract is, when the export is an object (its key) or a list (its place). */
  readonly member?: string | number;
  /** Made by a tool factory of the project: an export that is no contract when loaded is no tool. */
  readonly fromFactory?: true;
  readonly line: number;
  readonly jsdoc?: string;
}

export interface Discovery {
  readonly refs: readonly ContractRef[];
  readonly warnings: readonly Problem[];
  /**
   * Per contract file (relative): the exports the loader's walk leaves alone — those whose values
   * come from other modules (`*` for an `export *`), which are found where they are defined, and
   * those a barrel's named re-export leaves out on purpose.
   */
  readonly foreignExports: ReadonlyMap<string, readonly string[]>;
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
  /** The foreign exports of the file and of each module outside `include` it led to, by file. */
  readonly foreignExports: Readonly<Record<string, readonly string[]>>;
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
    found
      .flatMap((entry) => entry.refs)
      .map((ref) => [`${ref.file}#${exportPath(ref.exportName, ref.member)}`, ref]),
  );
  const refs = [...unique.values()].sort((a, b) => compare(a.file, b.file) || a.line - b.line);
  return {
    refs,
    warnings: found.flatMap((entry) => entry.warnings),
    foreignExports: new Map(found.flatMap((entry) => Object.entries(entry.foreignExports))),
    parsed: found.filter((entry) => entry.parsed).length,
  };
}

interface FileReader {
  discover(file: string): Omit<FileDiscovery, 'stamp'>;
}

/** A re-export with a module specifier: `export * from '…'`, `export { a } from '…'`. */
const RE_EXPORT = /export\s*(\*|\{|type\s*\{)[^;]*?from\s*['"]/;

/** An exported variable set to a call's result: a tool factory's, possibly. */
const EXPORTED_CALL = /export\s+(const|let|var)\s+[\w$]+\s*(:[^=]*)?=\s*[\w$.]+\s*\(/;

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
    foreign: Record<string, readonly string[]>,
  ): { refs: ContractRef[]; warnings: Problem[] } => {
    const file = source.getFilePath();
    const { refs, warnings } = contractsDefinedIn(source, consulted);
    if (refs.length > 0) foreign[projectPath(root, file)] = foreignExportsOf(source, loadTsMorph());
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
    }
    return { refs, warnings };
  };

  const isFunction = (
    node: TsMorph.Node,
  ): node is TsMorph.FunctionDeclaration | TsMorph.ArrowFunction | TsMorph.FunctionExpression =>
    Node.isFunctionDeclaration(node) || Node.isArrowFunction(node) || Node.isFunctionExpression(node);

  /** The names this module imports `defineTool` under, directly and as a namespace. */
  const factoryNames = (source: TsMorph.SourceFile, consulted: Set<string>) => {
    const direct = new Set<string>();
    const namespaces = new Set<string>();
    for (const declaration of source.getImportDeclarations()) {
      if (
        declaration.isTypeOnly() ||
        !providesFactory(declaration.getModuleSpecifierValue(), source.getFilePath(), consulted)
      )
        continue;
      const namespace = declaration.getNamespaceImport();
      if (namespace) namespaces.add(namespace.getText());
      for (const named of declaration.getNamedImports()) {
        if (named.getName() === FACTORY && !named.isTypeOnly())
          direct.add(named.getAliasNode()?.getText() ?? FACTORY);
      }
    }
    const callsDefineTool = (call: TsMorph.CallExpression) => {
      const callee = call.getExpression();
      return Node.isIdentifier(callee)
        ? direct.has(callee.getText())
        : Node.isPropertyAccessExpression(callee) &&
            callee.getName() === FACTORY &&
            namespaces.has(callee.getExpression().getText());
    };
    return { any: direct.size > 0 || namespaces.size > 0, callsDefineTool };
  };

  /**
   * A module's tool factories: the functions it declares whose body calls `defineTool`, by local
   * name, with the calls inside them.
   */
  const localFactories = (source: TsMorph.SourceFile, consulted: Set<string>) => {
    const names = new Map<string, TsMorph.Node>();
    const { any, callsDefineTool } = factoryNames(source, consulted);
    if (!any) return { names, callsDefineTool, inFactory: new Set<TsMorph.CallExpression>() };
    const inFactory = new Set<TsMorph.CallExpression>();
    for (const call of source.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      if (!callsDefineTool(call)) continue;
      const fn = call.getFirstAncestor(isFunction);
      if (!fn) continue;
      inFactory.add(call);
      const declared = Node.isFunctionDeclaration(fn)
        ? fn
        : fn.getParentIfKind(SyntaxKind.VariableDeclaration);
      const name = declared?.getName();
      if (name) names.set(name, declared as TsMorph.Node);
    }
    return { names, callsDefineTool, inFactory };
  };

  /** Per module: the names it exports tool factories under. */
  const exportedFactories = new Map<string, ReadonlySet<string>>();
  const factoriesExportedBy = (file: string, consulted: Set<string>): ReadonlySet<string> => {
    const known = exportedFactories.get(file);
    if (known) return known;
    const source = sourceAt(file);
    const exported = new Set<string>();
    exportedFactories.set(file, exported);
    consulted.add(file);
    if (!source.getFullText().includes(FACTORY)) return exported;
    const exportedAs = exportNamesByLocal(source);
    for (const [name, declaration] of localFactories(source, consulted).names) {
      const statement = Node.isVariableDeclaration(declaration)
        ? declaration.getVariableStatement()
        : declaration;
      const direct =
        statement &&
        (Node.isVariableStatement(statement) || Node.isFunctionDeclaration(statement)) &&
        statement.hasExportKeyword();
      const alias = direct ? name : exportedAs.get(name);
      if (alias) exported.add(alias);
    }
    return exported;
  };

  /** The exported `defineTool(...)` results written in this module, and those its factories make. */
  const contractsDefinedIn = (
    source: TsMorph.SourceFile,
    consulted: Set<string>,
  ): { refs: ContractRef[]; warnings: Problem[] } => {
    const file = source.getFilePath();
    const relative = projectPath(root, file);
    const refs: ContractRef[] = [];
    const warnings: Problem[] = [];
    const { names: factories, callsDefineTool, inFactory } = localFactories(source, consulted);
    // Factories imported from the project's own modules.
    const imported = new Set<string>();
    for (const declaration of source.getImportDeclarations()) {
      if (declaration.isTypeOnly()) continue;
      const target = resolve(declaration.getModuleSpecifierValue(), file);
      if (!target) continue;
      const named = declaration.getNamedImports();
      if (named.length === 0) continue;
      const exported = factoriesExportedBy(target, consulted);
      for (const specifier of named)
        if (exported.has(specifier.getName()))
          imported.add(specifier.getAliasNode()?.getText() ?? specifier.getName());
    }
    const callsFactory = (call: TsMorph.CallExpression) => {
      const callee = call.getExpression();
      return Node.isIdentifier(callee) && (factories.has(callee.getText()) || imported.has(callee.getText()));
    };

    const exportedAs = exportNamesByLocal(source);
    /** Locals holding a contract: each found once, through its export or an exported object. */
    const unexported = new Map<string, { line: number; documented: TsMorph.Node; used: boolean }>();
    for (const call of source.getDescendantsOfKind(SyntaxKind.CallExpression)) {
      const made = callsDefineTool(call) ? 'defineTool' : callsFactory(call) ? 'factory' : undefined;
      if (!made || inFactory.has(call)) continue;
      // A factory called inside another function is that function's business.
      if (made === 'factory' && call.getFirstAncestor(isFunction)) continue;
      const line = call.getStartLineNumber();
      const fromFactory = made === 'factory' ? { fromFactory: true as const } : {};
      const holder = outermostExpression(call, Node);
      const parent = holder.getParent();
      const member = memberOfExport(holder, Node, exportedAs);
      if (member) {
        const { documented, ...at } = member;
        refs.push({ file: relative, ...at, line, ...optionalJsDoc(documented), ...fromFactory });
        continue;
      }
      let exportName: string | undefined;
      let documented: TsMorph.Node = holder;
      if (parent && Node.isExportAssignment(parent)) {
        exportName = 'default';
        documented = parent;
      } else if (parent && Node.isVariableDeclaration(parent)) {
        const statement = parent.getVariableStatement();
        if (statement) documented = statement;
        exportName = statement?.hasExportKeyword() ? parent.getName() : exportedAs.get(parent.getName());
        if (exportName === undefined && statement?.getParent() === source) {
          unexported.set(parent.getName(), { line, documented, used: false });
          continue;
        }
      }
      if (exportName === undefined) {
        warnings.push(notExported(relative, line));
        continue;
      }
      refs.push({ file: relative, exportName, line, ...optionalJsDoc(documented), ...fromFactory });
    }
    // A local held in an exported object or list (`export const tools = { search }`) is a tool there.
    for (const held of heldLocals(source, loadTsMorph(), exportedAs)) {
      const local = unexported.get(held.local);
      if (!local) continue;
      local.used = true;
      refs.push({
        file: relative,
        exportName: held.exportName,
        member: held.member,
        line: local.line,
        ...optionalJsDoc(local.documented),
      });
    }
    for (const { line, used } of unexported.values()) if (!used) warnings.push(notExported(relative, line));
    return { refs, warnings };
  };

  return {
    discover(file) {
      const text = readFileSync(file, 'utf8');
      if (!text.includes(FACTORY) && !RE_EXPORT.test(text) && !EXPORTED_CALL.test(text))
        return { refs: [], warnings: [], parsed: false, consulted: [], foreignExports: {} };
      const consulted = new Set<string>();
      const source = project.createSourceFile(file, text, { overwrite: true });
      const foreignExports: Record<string, readonly string[]> = {};
      const { refs, warnings } = contractsIn(
        source,
        consulted,
        new Set([path.normalize(file)]),
        foreignExports,
      );
      return {
        refs,
        warnings,
        foreignExports,
        parsed: true,
        consulted: [...consulted].map((barrel) => ({ file: barrel, stamp: stampOf(barrel) })),
      };
    },
  };
}

/**
 * The exports of a module whose values come from other modules: re-exports (`*` for
 * `export * from`), exported imports, and exported variables whose value reads an imported name
 * (`export const all = { a, b }` with `a` imported).
 */
function foreignExportsOf(source: TsMorph.SourceFile, { Node }: typeof TsMorph): string[] {
  const imported = new Set<string>();
  for (const declaration of source.getImportDeclarations()) {
    if (declaration.isTypeOnly()) continue;
    const local = [
      declaration.getDefaultImport()?.getText(),
      declaration.getNamespaceImport()?.getText(),
      ...declaration
        .getNamedImports()
        .filter((named) => !named.isTypeOnly())
        .map((named) => named.getAliasNode()?.getText() ?? named.getName()),
    ];
    for (const name of local) if (name) imported.add(name);
  }
  const foreign = new Set<string>();
  for (const declaration of source.getExportDeclarations()) {
    if (declaration.getModuleSpecifierValue() === undefined) continue;
    const named = declaration.getNamedExports();
    const namespace = declaration.getNamespaceExport();
    if (namespace) foreign.add(namespace.getName());
    else if (named.length === 0) foreign.add('*');
    for (const specifier of named) foreign.add(specifier.getAliasNode()?.getText() ?? specifier.getName());
  }
  for (const [local, exported] of exportNamesByLocal(source)) if (imported.has(local)) foreign.add(exported);
  // An imported value, a member of one, or a literal holding one; a call's result is not one.
  const holdsImported = (node: TsMorph.Node): boolean => {
    if (
      Node.isParenthesizedExpression(node) ||
      Node.isAsExpression(node) ||
      Node.isSatisfiesExpression(node) ||
      Node.isSpreadElement(node) ||
      Node.isSpreadAssignment(node)
    )
      return holdsImported(node.getExpression());
    if (Node.isIdentifier(node)) return imported.has(node.getText());
    if (Node.isPropertyAccessExpression(node) || Node.isElementAccessExpression(node))
      return holdsImported(node.getExpression());
    if (Node.isArrayLiteralExpression(node)) return node.getElements().some(holdsImported);
    if (Node.isObjectLiteralExpression(node))
      return node
        .getProperties()
        .some((property) =>
          Node.isShorthandPropertyAssignment(property)
            ? imported.has(property.getName())
            : Node.isPropertyAssignment(property) || Node.isSpreadAssignment(property)
              ? holdsImported(
                  Node.isPropertyAssignment(property)
                    ? (property.getInitializer() ?? property)
                    : property.getExpression(),
                )
              : false,
        );
    return false;
  };
  for (const statement of source.getVariableStatements()) {
    if (!statement.hasExportKeyword()) continue;
    for (const declaration of statement.getDeclarations()) {
      const value = declaration.getInitializer();
      if (value && holdsImported(value)) foreign.add(declaration.getName());
    }
  }
  for (const assignment of source.getExportAssignments())
    if (holdsImported(assignment.getExpression())) foreign.add('default');
  return [...foreign].sort();
}

function notExported(file: string, line: number): Problem {
  return {
    severity: 'warning',
    code: 'not-exported',
    file,
    line,
    message: 'defineTool() result is not exported, so it is not a tool: export it, or remove it',
  };
}

/** The exported variable (or default export) whose object or list literal holds `node` directly. */
function exportedLiteral(
  literal: TsMorph.Node,
  Node: typeof TsMorph.Node,
  exportedAs: ReadonlyMap<string, string>,
): { exportName: string; documented: TsMorph.Node } | undefined {
  const holder = outermostExpression(literal, Node);
  const parent = holder.getParent();
  if (parent && Node.isExportAssignment(parent)) return { exportName: 'default', documented: parent };
  if (!parent || !Node.isVariableDeclaration(parent)) return undefined;
  const statement = parent.getVariableStatement();
  const exportName = statement?.hasExportKeyword() ? parent.getName() : exportedAs.get(parent.getName());
  return exportName === undefined || !statement ? undefined : { exportName, documented: statement };
}

/** Where a value sits in an exported object (`{ search: … }`) or list (`[…]`), one level deep. */
function memberOfExport(
  holder: TsMorph.Node,
  Node: typeof TsMorph.Node,
  exportedAs: ReadonlyMap<string, string>,
): { exportName: string; member: string | number; documented: TsMorph.Node } | undefined {
  const parent = holder.getParent();
  if (parent && Node.isPropertyAssignment(parent)) {
    const literal = parent.getParent();
    const key = propertyKey(parent, Node);
    const owner = literal && key !== undefined ? exportedLiteral(literal, Node, exportedAs) : undefined;
    return owner && key !== undefined
      ? { exportName: owner.exportName, member: key, documented: parent }
      : undefined;
  }
  if (parent && Node.isArrayLiteralExpression(parent)) {
    const owner = exportedLiteral(parent, Node, exportedAs);
    const index = parent.getElements().indexOf(holder as TsMorph.Expression);
    return owner ? { exportName: owner.exportName, member: index, documented: holder } : undefined;
  }
  return undefined;
}

/** A property's key when it is a plain name or a string. */
function propertyKey(property: TsMorph.PropertyAssignment, Node: typeof TsMorph.Node): string | undefined {
  const name = property.getNameNode();
  if (Node.isIdentifier(name)) return name.getText();
  if (Node.isStringLiteral(name)) return name.getLiteralValue();
  return undefined;
}

/** Locals named in exported object and list literals: `{ search }`, `{ find: search }`, `[search]`. */
function heldLocals(
  source: TsMorph.SourceFile,
  { Node, SyntaxKind }: typeof TsMorph,
  exportedAs: ReadonlyMap<string, string>,
): { local: string; exportName: string; member: string | number }[] {
  const held: { local: string; exportName: string; member: string | number }[] = [];
  for (const literal of [
    ...source.getDescendantsOfKind(SyntaxKind.ObjectLiteralExpression),
    ...source.getDescendantsOfKind(SyntaxKind.ArrayLiteralExpression),
  ]) {
    const owner = exportedLiteral(literal, Node, exportedAs);
    if (!owner) continue;
    if (Node.isArrayLiteralExpression(literal)) {
      literal.getElements().forEach((element, index) => {
        if (Node.isIdentifier(element))
          held.push({ local: element.getText(), exportName: owner.exportName, member: index });
      });
      continue;
    }
    for (const property of (literal as TsMorph.ObjectLiteralExpression).getProperties()) {
      if (Node.isShorthandPropertyAssignment(property))
        held.push({ local: property.getName(), exportName: owner.exportName, member: property.getName() });
      else if (Node.isPropertyAssignment(property)) {
        const value = property.getInitializer();
        const key = propertyKey(property, Node);
        if (value && Node.isIdentifier(value) && key !== undefined)
          held.push({ local: value.getText(), exportName: owner.exportName, member: key });
      }
    }
  }
  return held;
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
