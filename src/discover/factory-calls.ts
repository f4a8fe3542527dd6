import type * as TsMorph from 'ts-morph';
import { exportNamesByLocal } from './module-exports.js';
import type { SourceProject } from './source-project.js';

const PACKAGE = 'toolprep';
/** toolprep's tool factory, by the name its package exports it under. */
export const FACTORY = 'defineTool';

type FunctionNode = TsMorph.FunctionDeclaration | TsMorph.ArrowFunction | TsMorph.FunctionExpression;

/** The function a node is written in, if any. */
export function enclosingFunction(node: TsMorph.Node, Node: typeof TsMorph.Node): FunctionNode | undefined {
  return node.getFirstAncestor(
    (ancestor): ancestor is FunctionNode =>
      Node.isFunctionDeclaration(ancestor) ||
      Node.isArrowFunction(ancestor) ||
      Node.isFunctionExpression(ancestor),
  );
}

/** Which calls of a module make contracts. */
interface ContractCalls {
  /** A call of toolprep's `defineTool`, under whatever name the module imports it. */
  callsDefineTool(call: TsMorph.CallExpression): boolean;
  /** A call of a tool factory of the project: declared in the module, or imported from one of the project. */
  callsFactory(call: TsMorph.CallExpression): boolean;
  /** The `defineTool` calls inside the module's own factories: they make a contract when the factory is called. */
  readonly inFactory: ReadonlySet<TsMorph.CallExpression>;
}

export interface FactoryTracer {
  /** The calls of `source` that make contracts; every local module the answer read joins `consulted`. */
  callsIn(source: TsMorph.SourceFile, consulted: Set<string>): ContractCalls;
}

/**
 * Follows imports of `defineTool` from "toolprep" (renamed, through a namespace, or through local
 * barrels that re-export it) and the project's tool factories, remembering each barrel's and each
 * module's answer for the rest of the run.
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
      const fn = enclosingFunction(call, Node);
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

  return {
    callsIn(source, consulted) {
      const file = source.getFilePath();
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
        return (
          Node.isIdentifier(callee) && (factories.has(callee.getText()) || imported.has(callee.getText()))
        );
      };
      return { callsDefineTool, callsFactory, inFactory };
    },
  };
}
