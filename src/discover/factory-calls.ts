import type * as TsMorph from 'ts-morph';
import { returnedParameter } from './identity-wrappers.js';
import { exportNamesByLocal } from './module-exports.js';
import type { SourceProject } from './source-project.js';
import { descendantsOfKinds, isFunctionLike, withoutTypeSyntax } from './syntax.js';

const PACKAGE = 'toolprep';
/** toolprep's tool factory, by the name its package exports it under. */
export const FACTORY = 'defineTool';

type FunctionNode = TsMorph.FunctionDeclaration | TsMorph.ArrowFunction | TsMorph.FunctionExpression;

function isFunctionNode(node: TsMorph.Node, Node: typeof TsMorph.Node): node is FunctionNode {
  return Node.isFunctionDeclaration(node) || Node.isArrowFunction(node) || Node.isFunctionExpression(node);
}

/** The outermost function, method, accessor or constructor a node is written in, if any. */
export function outermostFunction(node: TsMorph.Node, Node: typeof TsMorph.Node): TsMorph.Node | undefined {
  let outer: TsMorph.Node | undefined;
  for (let ancestor = node.getParent(); ancestor; ancestor = ancestor.getParent())
    if (isFunctionLike(ancestor, Node)) outer = ancestor;
  return outer;
}

/**
 * The calls of a module that may make a contract, in source order: of a plain name (`defineTool`,
 * a tool factory) or of a namespace's `defineTool`. The others (`z.string().min(1)`, most of a
 * contract file) are never wrapped.
 */
export function callsThatMayMakeContracts(
  source: TsMorph.SourceFile,
  { SyntaxKind }: typeof TsMorph,
): TsMorph.CallExpression[] {
  return descendantsOfKinds<TsMorph.CallExpression>(source, [SyntaxKind.CallExpression], (call) => {
    const callee = (call as TsMorph.ts.CallExpression).expression;
    return (
      callee.kind === SyntaxKind.Identifier ||
      (callee.kind === SyntaxKind.PropertyAccessExpression &&
        (callee as TsMorph.ts.PropertyAccessExpression).name.text === FACTORY)
    );
  });
}

/** Which calls of a module make contracts, and which pass one through. */
export interface ContractCalls {
  /** A call of toolprep's `defineTool`, under whatever name the module imports it. */
  callsDefineTool(call: TsMorph.CallExpression): boolean;
  /** A call of a tool factory of the project: declared in the module, or imported from one of the project. */
  callsFactory(call: TsMorph.CallExpression): boolean;
  /** For a call of an identity wrapper of the project (`audited(tool)`), the argument it returns. */
  wrapperArgument(call: TsMorph.CallExpression): number | undefined;
  /** The local names the module's tool factories are called by (declared or imported). */
  readonly factoryNames: ReadonlySet<string>;
  /**
   * The named function a node is written in (through any unnamed ones): a call there makes a
   * contract only when that function is called, so it is the function's business.
   */
  ownerOf(node: TsMorph.Node): TsMorph.Node | undefined;
}

export interface FactoryTracer {
  /** The calls of `source` that make contracts; every local module the answer read joins `consulted`. */
  callsIn(source: TsMorph.SourceFile, consulted: Set<string>): ContractCalls;
}

/** What a module's functions do with contracts, by local name. */
interface ModuleFunctions {
  readonly calls: ContractCalls;
  /** By exported name (`default` for a default export): its tool factories, and its identity wrappers. */
  readonly exported: {
    readonly factories: ReadonlySet<string>;
    readonly wrappers: ReadonlyMap<string, number>;
  };
}

/**
 * Follows imports of `defineTool` from "toolprep" (renamed, through a namespace, or through local
 * barrels that re-export it), the project's tool factories (a named function whose body calls
 * `defineTool` or another tool factory) and its identity wrappers, remembering each barrel's and
 * each module's answer for the rest of the run.
 */
export function createFactoryTracer({ morph, resolve, sourceAt }: SourceProject): FactoryTracer {
  const { Node, SyntaxKind } = morph;
  /** Per barrel: whether it gives toolprep's defineTool, and every local module that answer read. */
  const barrels = new Map<string, { provides: boolean; chain: readonly string[] }>();

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

  /** The names this module imports `defineTool` under, directly and as a namespace. */
  const defineToolCalls = (source: TsMorph.SourceFile, consulted: Set<string>) => {
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
    return (call: TsMorph.CallExpression) => {
      const callee = call.getExpression();
      return Node.isIdentifier(callee)
        ? direct.has(callee.getText())
        : Node.isPropertyAccessExpression(callee) &&
            callee.getName() === FACTORY &&
            namespaces.has(callee.getExpression().getText());
    };
  };

  /** The name a function is called by in its module, `default` for an unnamed default export. */
  const nameOf = (fn: FunctionNode): string | undefined => {
    if (Node.isFunctionDeclaration(fn)) return fn.isDefaultExport() ? 'default' : fn.getName();
    let holder: TsMorph.Node = fn;
    for (let parent = holder.getParent(); parent && withoutTypeSyntax(parent, Node) === fn; ) {
      holder = parent;
      parent = holder.getParent();
    }
    const parent = holder.getParent();
    if (parent && Node.isVariableDeclaration(parent) && Node.isIdentifier(parent.getNameNode()))
      return parent.getName();
    if (parent && Node.isExportAssignment(parent) && !parent.isExportEquals()) return 'default';
    return undefined;
  };

  /** The outermost function a node is written in, when it has a name; its calls are its business. */
  const ownerOf = (node: TsMorph.Node): TsMorph.Node | undefined => {
    const outer = outermostFunction(node, Node);
    return outer && isFunctionNode(outer, Node) && nameOf(outer) !== undefined ? outer : undefined;
  };

  const modules = new Map<string, { functions: ModuleFunctions; reads: ReadonlySet<string> }>();
  const functionsOf = (source: TsMorph.SourceFile, consulted: Set<string>): ModuleFunctions => {
    const file = source.getFilePath();
    const known = modules.get(file);
    if (known) {
      for (const read of known.reads) consulted.add(read);
      return known.functions;
    }
    /** The local modules this module's answer reads: they join the `consulted` of every module asking. */
    const reads = new Set<string>();
    const factoryNames = new Set<string>();
    const wrappers = new Map<string, number>();
    const exported = { factories: new Set<string>(), wrappers: new Map<string, number>() };
    const callsDefineTool = defineToolCalls(source, reads);
    const callsFactory = (call: TsMorph.CallExpression) => {
      const callee = call.getExpression();
      return Node.isIdentifier(callee) && factoryNames.has(callee.getText());
    };
    const wrapperArgument = (call: TsMorph.CallExpression) => {
      const callee = call.getExpression();
      return Node.isIdentifier(callee) ? wrappers.get(callee.getText()) : undefined;
    };
    const candidates = callsThatMayMakeContracts(source, morph);
    const functions: ModuleFunctions = {
      calls: { callsDefineTool, callsFactory, wrapperArgument, factoryNames, ownerOf },
      exported,
    };
    // Kept before the imports are followed, so that a cycle of imports ends here.
    modules.set(file, { functions, reads });

    // Factories and wrappers imported from the project's own modules.
    for (const declaration of source.getImportDeclarations()) {
      if (declaration.isTypeOnly()) continue;
      const target = resolve(declaration.getModuleSpecifierValue(), file);
      const defaultImport = declaration.getDefaultImport()?.getText();
      const imports: (readonly [string, string])[] = [
        ...declaration
          .getNamedImports()
          .filter((named) => !named.isTypeOnly())
          .map((named) => [named.getName(), named.getAliasNode()?.getText() ?? named.getName()] as const),
        ...(defaultImport ? [['default', defaultImport] as const] : []),
      ];
      if (!target || imports.length === 0) continue;
      reads.add(target);
      const theirs = functionsOf(sourceAt(target), reads).exported;
      for (const [name, local] of imports) {
        if (theirs.factories.has(name)) factoryNames.add(local);
        const index = theirs.wrappers.get(name);
        if (index !== undefined) wrappers.set(local, index);
      }
    }

    // The module's own named functions: identity wrappers, and the rest, which may be factories.
    const named = new Map<string, FunctionNode>();
    const ownWrappers = new Map<string, FunctionNode>();
    const functionKinds = [
      SyntaxKind.FunctionDeclaration,
      SyntaxKind.ArrowFunction,
      SyntaxKind.FunctionExpression,
    ];
    const functionNodes = descendantsOfKinds<FunctionNode>(source, functionKinds);
    // Declarations first, then arrows, then expressions: a later one of a name takes its place.
    for (const fn of functionKinds.flatMap((kind) =>
      functionNodes.filter((node) => node.getKind() === kind),
    )) {
      const name = nameOf(fn);
      // A function written inside another is that one's business: only a module's own are called by name.
      if (name === undefined || outermostFunction(fn, Node) !== undefined || !fn.getBody()) continue;
      const index = returnedParameter(fn, morph);
      if (index === undefined) named.set(name, fn);
      else {
        wrappers.set(name, index);
        ownWrappers.set(name, fn);
      }
    }
    // A function is a tool factory when it calls defineTool, or (and is not async) another tool factory.
    for (let added = true; added; ) {
      added = false;
      for (const call of candidates) {
        const direct = callsDefineTool(call);
        if (!direct && !callsFactory(call)) continue;
        const owner = ownerOf(call) as FunctionNode | undefined;
        const name = owner && nameOf(owner);
        if (!owner || !name || factoryNames.has(name) || named.get(name) !== owner) continue;
        if (!direct && (owner.isAsync() || (!Node.isArrowFunction(owner) && owner.isGenerator()))) continue;
        factoryNames.add(name);
        added = true;
      }
    }

    const exportedAs = exportNamesByLocal(source);
    const exportName = (local: string, fn: FunctionNode): string | undefined => {
      if (local === 'default') return 'default';
      if (Node.isFunctionDeclaration(fn)) return fn.hasExportKeyword() ? nameOf(fn) : exportedAs.get(local);
      const statement = source.getVariableDeclaration(local)?.getVariableStatement();
      return statement?.hasExportKeyword() ? local : exportedAs.get(local);
    };
    for (const [local, fn] of named) {
      const name = factoryNames.has(local) ? exportName(local, fn) : undefined;
      if (name) exported.factories.add(name);
    }
    for (const [local, fn] of ownWrappers) {
      const name = exportName(local, fn);
      const index = wrappers.get(local);
      if (name && index !== undefined) exported.wrappers.set(name, index);
    }
    for (const read of reads) consulted.add(read);
    return functions;
  };

  return { callsIn: (source, consulted) => functionsOf(source, consulted).calls };
}
