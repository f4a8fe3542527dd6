import type * as TsMorph from 'ts-morph';
import type { Problem } from '../shared/build/problems.js';
import { projectPath } from '../shared/build/project-path.js';
import type { ContractRef } from './contract-ref.js';
import { callsThatMayMakeContracts, type FactoryTracer, outermostFunction } from './factory-calls.js';
import { optionalJsDoc } from './jsdoc.js';
import { exportNamesByLocal } from './module-exports.js';
import { calleeName, type Place, placesOfValues, referencesTo } from './value-places.js';

/**
 * The contracts a module exports: each `defineTool(...)` result and each result of a tool factory
 * of the project, followed from the call through locals, object and list literals (one level),
 * `Object.freeze` and identity wrappers to the export that holds it, with its member, line and
 * JSDoc. A result that provably goes nowhere (never exported) is a warning; one that goes where
 * discovery cannot follow it is an error naming the construct, never a tool dropped without a word.
 */
export function contractsDefinedIn(
  source: TsMorph.SourceFile,
  consulted: Set<string>,
  { root, morph, tracer }: { root: string; morph: typeof TsMorph; tracer: FactoryTracer },
): { refs: ContractRef[]; warnings: Problem[]; problems: Problem[] } {
  const { Node } = morph;
  const relative = projectPath(root, source.getFilePath());
  const refs: ContractRef[] = [];
  const warnings: Problem[] = [];
  const problems: Problem[] = [];
  const calls = tracer.callsIn(source, consulted);
  const places = placesOfValues(source, morph, calls, exportNamesByLocal(source));

  for (const call of callsThatMayMakeContracts(source, morph)) {
    const made = calls.callsDefineTool(call)
      ? 'defineTool'
      : calls.callsFactory(call)
        ? 'factory'
        : undefined;
    // A call inside a named function makes a contract when that function is called: its business.
    if (!made || calls.ownerOf(call)) continue;
    const what =
      made === 'defineTool' ? 'defineTool() result' : `result of the tool factory ${calleeName(call)}()`;
    const line = call.getStartLineNumber();
    const inside = outermostFunction(call, Node);
    if (inside) {
      problems.push(outOfSight(relative, line, what, insideFunction(inside, Node), INSIDE_FUNCTION_HINT));
      continue;
    }
    const found = places.follow(call);
    const exported = found.filter(
      (place): place is Extract<Place, { at: 'export' }> => place.at === 'export',
    );
    if (exported.length > 0) {
      const fromFactory = made === 'factory' ? { fromFactory: true as const } : {};
      for (const place of exported) {
        const jsdoc = optionalJsDoc(place.origin).jsdoc ?? optionalJsDoc(place.documented).jsdoc;
        refs.push({
          file: relative,
          exportName: place.exportName,
          ...(place.member === undefined ? {} : { member: place.member }),
          line,
          ...(jsdoc ? { jsdoc } : {}),
          ...fromFactory,
        });
      }
      continue;
    }
    const unreadable = found.find((place) => place.at === 'unreadable');
    if (unreadable?.at === 'unreadable') {
      problems.push(
        outOfSight(
          relative,
          unreadable.node.getStartLineNumber(),
          what,
          unreadable.construct,
          unreadable.hint,
          {
            line,
            local: unreadable.node.getStartLineNumber() !== line,
          },
        ),
      );
      continue;
    }
    warnings.push(notExported(relative, line, what));
  }

  // A tool factory handed to another function (`names.map(makeTool)`) is called where discovery cannot see.
  for (const name of calls.factoryNames)
    for (const reference of referencesTo(source, name, morph)) {
      const parent = reference.getParent();
      if (!parent || !Node.isCallExpression(parent) || parent.getExpression() === reference) continue;
      if (calls.ownerOf(reference)) continue;
      problems.push(
        outOfSight(
          relative,
          reference.getStartLineNumber(),
          `tool factory ${name}`,
          `passed to \`${calleeName(parent)}(…)\`, which calls it where discovery cannot see`,
          INSIDE_FUNCTION_HINT,
        ),
      );
    }
  return { refs, warnings, problems };
}

const HOW_TO_WRITE =
  'write each tool as `export const name = defineTool(…)`, or as a member of an exported object or list literal, `export const tools = { name: defineTool(…) }`, frozen or not';
const INSIDE_FUNCTION_HINT = `${HOW_TO_WRITE}; for tools made in a loop, write a named tool factory, \`function makeTool(name: string) { return defineTool(…) }\`, and export each of its calls: \`export const search = makeTool('search')\``;

/** Where in a function with no name a call is, for the message. */
function insideFunction(fn: TsMorph.Node, Node: typeof TsMorph.Node): string {
  const parent = fn.getParent();
  if (
    parent &&
    (Node.isCallExpression(parent) || Node.isNewExpression(parent)) &&
    parent.getExpression() !== fn
  )
    return `made inside a function passed to \`${calleeName(parent)}(…)\``;
  if (Node.isMethodDeclaration(fn) || Node.isGetAccessorDeclaration(fn) || Node.isSetAccessorDeclaration(fn))
    return 'made inside a method';
  if (Node.isConstructorDeclaration(fn) || Node.isClassStaticBlockDeclaration(fn))
    return 'made inside a class';
  return 'made inside a function with no name';
}

function outOfSight(
  file: string,
  line: number,
  what: string,
  construct: string,
  hint: string | undefined,
  origin?: { line: number; local: boolean },
): Problem {
  const of = origin?.local ? ` (of line ${origin.line})` : '';
  return {
    severity: 'error',
    code: 'contract-out-of-sight',
    file,
    line,
    message: `${what}${of} is ${construct}, where discovery cannot see which export holds it, so it would not be a tool`,
    hint: hint ?? HOW_TO_WRITE,
  };
}

function notExported(file: string, line: number, what: string): Problem {
  return {
    severity: 'warning',
    code: 'not-exported',
    file,
    line,
    message: `${what} is not exported, so it is not a tool: export it, or remove it`,
  };
}
