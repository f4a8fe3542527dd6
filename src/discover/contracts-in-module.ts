import type * as TsMorph from 'ts-morph';
import type { Problem } from '../shared/build/problems.js';
import { projectPath } from '../shared/build/project-path.js';
import type { ContractRef } from './contract-ref.js';
import { enclosingFunction, type FactoryTracer } from './factory-calls.js';
import { optionalJsDoc } from './jsdoc.js';
import { exportNamesByLocal, heldLocals, memberOfExport, outermostExpression } from './module-exports.js';

/**
 * The exported `defineTool(...)` results written in a module, and those its factories make: each
 * with its export (and its member, in an exported object or list), its line and its JSDoc. A result
 * that is not exported is a warning.
 */
export function contractsDefinedIn(
  source: TsMorph.SourceFile,
  consulted: Set<string>,
  { root, morph, tracer }: { root: string; morph: typeof TsMorph; tracer: FactoryTracer },
): { refs: ContractRef[]; warnings: Problem[] } {
  const { Node, SyntaxKind } = morph;
  const file = source.getFilePath();
  const relative = projectPath(root, file);
  const refs: ContractRef[] = [];
  const warnings: Problem[] = [];
  const { callsDefineTool, callsFactory, inFactory } = tracer.callsIn(source, consulted);

  const exportedAs = exportNamesByLocal(source);
  /** Locals holding a contract: each found once, through its export or an exported object. */
  const unexported = new Map<string, { line: number; documented: TsMorph.Node; used: boolean }>();
  for (const call of source.getDescendantsOfKind(SyntaxKind.CallExpression)) {
    const made = callsDefineTool(call) ? 'defineTool' : callsFactory(call) ? 'factory' : undefined;
    if (!made || inFactory.has(call)) continue;
    // A factory called inside another function is that function's business.
    if (made === 'factory' && enclosingFunction(call, Node)) continue;
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
  for (const held of heldLocals(source, morph, exportedAs)) {
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
