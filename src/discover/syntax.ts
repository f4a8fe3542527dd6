import type * as TsMorph from 'ts-morph';

/** An expression without the parentheses, `as`, `satisfies` and `!` around it. */
export function withoutTypeSyntax(node: TsMorph.Node, Node: typeof TsMorph.Node): TsMorph.Node {
  let current = node;
  while (
    Node.isParenthesizedExpression(current) ||
    Node.isAsExpression(current) ||
    Node.isSatisfiesExpression(current) ||
    Node.isNonNullExpression(current)
  )
    current = current.getExpression();
  return current;
}

/** A function, method, accessor, constructor or class static block: a body that runs when called. */
export function isFunctionLike(node: TsMorph.Node, Node: typeof TsMorph.Node): boolean {
  return (
    Node.isFunctionDeclaration(node) ||
    Node.isArrowFunction(node) ||
    Node.isFunctionExpression(node) ||
    Node.isMethodDeclaration(node) ||
    Node.isGetAccessorDeclaration(node) ||
    Node.isSetAccessorDeclaration(node) ||
    Node.isConstructorDeclaration(node) ||
    Node.isClassStaticBlockDeclaration(node)
  );
}

/** A node that declares a binding by its name node. */
export function isDeclaration(node: TsMorph.Node, Node: typeof TsMorph.Node): boolean {
  return (
    Node.isVariableDeclaration(node) ||
    Node.isFunctionDeclaration(node) ||
    Node.isFunctionExpression(node) ||
    Node.isClassDeclaration(node) ||
    Node.isClassExpression(node) ||
    Node.isParameterDeclaration(node) ||
    Node.isBindingElement(node) ||
    Node.isImportSpecifier(node) ||
    Node.isNamespaceImport(node) ||
    Node.isEnumDeclaration(node) ||
    Node.isModuleDeclaration(node)
  );
}

/** ts-morph's wrapper of a compiler node, the one its own methods give (the same object each time). */
interface WrapsCompilerNodes {
  _getNodeFromCompilerNode(node: TsMorph.ts.Node): TsMorph.Node;
}

/**
 * The descendants of `node` of the given kinds that `keep` accepts, in the order of ts-morph's
 * `getDescendantsOfKind`. That method walks nested generators (most of discovery's time in a large
 * file) and wraps every match; a plain walk of the compiler's nodes wraps only what `keep`, which
 * reads the compiler's node, lets through. The wrapper is ts-morph's own (an internal method of the
 * pinned version), so that nodes compare equal to those its methods return.
 */
export function descendantsOfKinds<T extends TsMorph.Node>(
  node: TsMorph.Node,
  kinds: readonly TsMorph.SyntaxKind[],
  keep: (compilerNode: TsMorph.ts.Node) => boolean = () => true,
): T[] {
  const wrapper = node as unknown as WrapsCompilerNodes;
  const found: T[] = [];
  const visit = (child: TsMorph.ts.Node): undefined => {
    if (kinds.includes(child.kind) && keep(child)) found.push(wrapper._getNodeFromCompilerNode(child) as T);
    child.forEachChild(visit);
    return undefined;
  };
  node.compilerNode.forEachChild(visit);
  return found;
}
