import type * as TsMorph from 'ts-morph';

const COMPARISONS = new Set(['==', '===', '!=', '!==', '<=', '>=']);

type FunctionLike = TsMorph.FunctionDeclaration | TsMorph.ArrowFunction | TsMorph.FunctionExpression;

/**
 * The place of the parameter a function provably returns unchanged (`<T>(tool: T): T => tool`,
 * or a body whose every `return` gives that parameter, ending in one): a call of it holds what it
 * is given there. Read from syntax alone, so conservatively: an async function or a generator, a
 * parameter that is assigned or redeclared in the body, or a body that may end without a `return`
 * is no identity wrapper.
 */
export function returnedParameter(fn: FunctionLike, morph: typeof TsMorph): number | undefined {
  const { Node, SyntaxKind } = morph;
  const INCREMENTS = new Set([SyntaxKind.PlusPlusToken, SyntaxKind.MinusMinusToken]);
  if (fn.isAsync() || (!Node.isArrowFunction(fn) && fn.isGenerator())) return undefined;
  const body = fn.getBody();
  if (!body) return undefined;
  const parameters = fn.getParameters();
  const named = (expression: TsMorph.Node | undefined): number | undefined => {
    const inner = expression && withoutTypeSyntax(expression, Node);
    if (!inner || !Node.isIdentifier(inner)) return undefined;
    const index = parameters.findIndex(
      (parameter) => !parameter.isRestParameter() && parameter.getNameNode().getText() === inner.getText(),
    );
    return index === -1 ? undefined : index;
  };
  if (!Node.isBlock(body)) return named(body);
  const last = body.getStatements().at(-1);
  if (!last || !Node.isReturnStatement(last)) return undefined;
  const index = named(last.getExpression());
  if (index === undefined) return undefined;
  const name = parameters[index]?.getName();
  // Every other `return` of this function (not of a function inside it) gives the same parameter.
  const ownReturns = body
    .getDescendantsOfKind(SyntaxKind.ReturnStatement)
    .filter((statement) => enclosingFunctionLike(statement, Node) === fn);
  if (ownReturns.some((statement) => named(statement.getExpression()) !== index)) return undefined;
  // The parameter is never given another value, nor shadowed by a declaration of the same name.
  const rebound = body.getDescendantsOfKind(SyntaxKind.Identifier).some((identifier) => {
    if (identifier.getText() !== name) return false;
    const parent = identifier.getParent();
    if (!parent) return false;
    if (Node.isBinaryExpression(parent)) {
      const operator = parent.getOperatorToken().getText();
      return parent.getLeft() === identifier && operator.endsWith('=') && !COMPARISONS.has(operator);
    }
    if (Node.isPrefixUnaryExpression(parent) || Node.isPostfixUnaryExpression(parent))
      return INCREMENTS.has(parent.getOperatorToken());
    return (
      (Node.isVariableDeclaration(parent) ||
        Node.isParameterDeclaration(parent) ||
        Node.isBindingElement(parent) ||
        Node.isFunctionDeclaration(parent) ||
        Node.isClassDeclaration(parent)) &&
      parent.getNameNode() === identifier
    );
  });
  return rebound ? undefined : index;
}

/** The innermost function, method or accessor a node is written in. */
function enclosingFunctionLike(node: TsMorph.Node, Node: typeof TsMorph.Node): TsMorph.Node | undefined {
  return node.getFirstAncestor(
    (ancestor) =>
      Node.isFunctionDeclaration(ancestor) ||
      Node.isArrowFunction(ancestor) ||
      Node.isFunctionExpression(ancestor) ||
      Node.isMethodDeclaration(ancestor) ||
      Node.isGetAccessorDeclaration(ancestor) ||
      Node.isSetAccessorDeclaration(ancestor) ||
      Node.isConstructorDeclaration(ancestor),
  );
}

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
