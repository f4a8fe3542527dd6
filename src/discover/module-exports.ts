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
