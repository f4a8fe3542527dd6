import type * as TsMorph from 'ts-morph';
import { exportNamesByLocal } from './module-exports.js';

/**
 * The exports of a module whose values come from other modules: re-exports (`*` for
 * `export * from`), exported imports, and exported variables whose value reads an imported name
 * (`export const all = { a, b }` with `a` imported).
 */
export function foreignExportsOf(source: TsMorph.SourceFile, { Node }: typeof TsMorph): string[] {
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
