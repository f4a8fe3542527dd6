import type * as TsMorph from 'ts-morph';

/** `export { local as name }` and `export default local`, by local name (the first export wins). */
export function exportNamesByLocal(source: TsMorph.SourceFile): Map<string, string> {
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
export function outermostExpression(node: TsMorph.Node, Node: typeof TsMorph.Node): TsMorph.Node {
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

/** Where a value sits in an exported object (`{ search: … }`) or list (`[…]`), one level deep. */
export function memberOfExport(
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

/** Locals named in exported object and list literals: `{ search }`, `{ find: search }`, `[search]`. */
export function heldLocals(
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

/** A property's key when it is a plain name or a string. */
function propertyKey(property: TsMorph.PropertyAssignment, Node: typeof TsMorph.Node): string | undefined {
  const name = property.getNameNode();
  if (Node.isIdentifier(name)) return name.getText();
  if (Node.isStringLiteral(name)) return name.getLiteralValue();
  return undefined;
}
