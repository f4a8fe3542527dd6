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
