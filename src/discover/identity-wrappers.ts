import type * as TsMorph from 'ts-morph';
import { isDeclaration, isFunctionLike, withoutTypeSyntax } from './syntax.js';

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
    .filter((statement) => statement.getFirstAncestor((ancestor) => isFunctionLike(ancestor, Node)) === fn);
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
      isDeclaration(parent, Node) &&
      (parent as { getNameNode?: () => unknown }).getNameNode?.() === identifier
    );
  });
  return rebound ? undefined : index;
}
