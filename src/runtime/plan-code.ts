import type { Plan, PlanNode } from '../manifest/plan.js';
import { withoutAbsentNulls } from './inverse.js';
import { isOneValueText, tooDeep } from './json-text.js';
import {
  compileText,
  definitionOf,
  listAccepted,
  type PlanWalk,
  type Steps,
  structureParts,
  variantPicker,
} from './plan-steps.js';

/**
 * A plan compiled into JavaScript source: the walk of `plan-closures.ts`, node by node, with every
 * field read by its own name. Closures read fields through one shared `record[key]`, which V8 can
 * only look up slowly once it has seen many keys; generated code gives each field a read of its
 * own, and each call a target it can inline, which is what makes the plan cheap beside the
 * contract's parser (Zod 4 and Ajv compile theirs the same way). User keys enter the source only
 * as JSON string literals; everything else the walk needs is passed in as a value.
 */

/** The functions a node compiles to, by name in the source; a part is absent where the node does nothing. */
interface Emitted {
  /** The node's text step, as an expression of `value`. */
  readonly text?: string;
  readonly structure?: string;
  readonly lone?: string;
  /** What a parent calls to walk a value here. */
  readonly visit: string;
}

const HELPERS = {
  hasNullValue,
  tooDeep,
  isOneValueText,
  withoutAbsentNulls,
  listAccepted,
  hasOwn: Object.hasOwn,
};

/** Throws `EvalError` where code generation from strings is not allowed (Workers, a strict CSP). */
export function generatedWalk(plan: Plan, steps: Steps): PlanWalk {
  const constants: unknown[] = [];
  const functions: string[] = [];
  const shared = new Map<string, Emitted>();
  let names = 0;
  const constant = (value: unknown) => `k${constants.push(value) - 1}`;
  const fresh = (prefix: string) => `${prefix}${names++}`;
  const literal = (key: string) => JSON.stringify(key);

  const emit = (node: PlanNode): Emitted => {
    if (node.ref !== undefined) return emitShared(node.ref);
    const structure = emitStructure(node);
    const text = compileText(node, steps);
    const emitted = {
      text: text && textSource(node, constant(text)),
      structure,
      lone: node.lone && emitLone(node.lone, structure),
      visit: fresh('visit'),
    };
    functions.push(visitSource(emitted));
    return emitted;
  };

  /** A definition, emitted once; its name is taken first, so that a recursive one can call itself. */
  const emitShared = (name: string): Emitted => {
    const known = shared.get(name);
    if (known) return known;
    const definition = definitionOf(plan, name);
    const visit = fresh('shared');
    // As in the closures, a reference walks every value by its definition.
    const reference = { text: `${visit}(value, walk)`, structure: visit, lone: visit, visit };
    shared.set(name, reference);
    const target = emit(definition);
    functions.push(`function ${visit}(value, walk) { return ${target.visit}(value, walk); }`);
    return reference;
  };

  const emitLone = (check: NonNullable<PlanNode['lone']>, structure: string | undefined): string => {
    const name = fresh('lone');
    const repaired = structure ? `${structure}(list, walk)` : 'list';
    functions.push(
      `function ${name}(value, walk) { const list = [value], repaired = ${repaired}; return listAccepted(${constant(check)}, repaired, walk) ? repaired : value; }`,
    );
    return name;
  };

  const emitStructure = (node: PlanNode): string | undefined => {
    const { sides, onArray, onObject, single } = structureParts(node, {
      structureOf: (other) => emit(other).structure,
      items: emitItems,
      variants: emitVariants,
      fields: emitFields,
    });
    if (single) return onArray ?? onObject;
    const name = fresh('structure');
    functions.push(
      `function ${name}(value, walk) { ${sides.map((side) => `value = ${side}(value, walk);`).join(' ')}
if (Array.isArray(value)) return ${onArray ? `${onArray}(value, walk)` : 'value'};
return ${onObject ? `${onObject}(value, walk)` : 'value'}; }`,
    );
    return name;
  };

  const emitVariants = (tag: string, variants: NonNullable<PlanNode['variants']>): string | undefined => {
    const structures = variants.map(({ node }) => emit(node).structure);
    if (!structures.some((structure) => structure)) return undefined;
    const name = fresh('variants');
    const walkVariant = (index: number) =>
      structures[index] ? `return ${structures[index]}(record, walk);` : 'return record;';
    // The first variant listing a tag takes it; tags JSON can write are matched by a switch.
    const cases = new Map<string, string>();
    for (const [index, variant] of variants.entries())
      for (const value of variant.tags) {
        const source = jsonLiteral(value);
        if (source !== undefined && !cases.has(source))
          cases.set(source, `case ${source}: ${walkVariant(index)}`);
      }
    const allLiteral = variants.every((variant) =>
      variant.tags.every((value) => jsonLiteral(value) !== undefined),
    );
    // Any other tag (or, with `caseFold`, a tag in another case) is the variant the picker finds.
    const picked = `switch (${constant(variantPicker(variants, steps))}(tag)) { ${structures.map((_, index) => `case ${index}: ${walkVariant(index)}`).join(' ')} }`;
    functions.push(
      `function ${name}(record, walk) { if (Array.isArray(record)) return record; const tag = record[${literal(tag)}];
${allLiteral ? `switch (tag) { ${[...cases.values()].join(' ')} }` : ''}
${!allLiteral || steps.caseFold ? picked : ''}
return record; }`,
    );
    return name;
  };

  const emitItems = (node: PlanNode): string | undefined => {
    if (!node.items && !node.tuple) return undefined;
    const tuple = (node.tuple ?? []).map((item) => (item ? emit(item) : undefined));
    const rest = node.items && emit(node.items);
    const walkItem = (item: Emitted | undefined) =>
      childSource(item, 'item', 'index', '{ result ??= value.slice(); result[index] = repaired; }');
    const body = tuple.length
      ? `switch (index) { ${tuple.map((item, index) => `case ${index}: ${walkItem(item)} break;`).join(' ')} default: ${walkItem(rest)} }`
      : walkItem(rest);
    const name = fresh('items');
    functions.push(
      `function ${name}(value, walk) { if (!Array.isArray(value)) return value; let result, item, repaired;
for (let index = 0; index < value.length; index++) { item = value[index]; ${body} }
return result ?? value; }`,
    );
    return name;
  };

  const emitFields = (node: PlanNode): string | undefined => {
    const walked = Object.entries(node.fields ?? {})
      .map(([key, field]) => [key, emit(field)] as const)
      .filter(([, field]) => field.text || field.structure);
    const rest = node.rest && emit(node.rest);
    const nullAbsent = steps.nullAbsent ? node.nullAbsent : undefined;
    const beyond = steps.nullAbsent && node.nullAbsentBeyond ? new Set(node.nullAbsentBeyond) : undefined;
    if (walked.length === 0 && !rest && !nullAbsent && !beyond) return undefined;
    // The caller's object is copied on the first repair, a copy of ours repaired in place; an
    // inherited value is walked as Zod will read it, but only an own one is replaced. The copy
    // holds the key as its own, so assigning it sets that key, even `__proto__`.
    const replace = (key: string) =>
      `if (hasOwn(record, ${key})) { if (result === value) result = { ...record }; result[${key}] = repaired; }`;
    const fields = walked.map(([key, field]) => {
      const name = literal(key);
      return `field = record[${name}]; ${childSource(field, 'field', name, replace(name))}`;
    });
    const restWalk = rest && childSource(rest, 'field', 'key', replace('key'));
    // Each listed key read by name, and any other key (`beyond`) in one scan, before the copy is
    // made: most calls hold none of these nulls.
    const anyNull = [
      ...(nullAbsent ?? []).map((key) => `record[${literal(key)}] === null`),
      ...(beyond ? ['hasNullValue(record)'] : []),
    ].join(' || ');
    const removeNulls = anyNull
      ? `if (${anyNull}) record = withoutAbsentNulls(record, ${constant(nullAbsent)}, ${constant(beyond)});`
      : '';
    const name = fresh('fields');
    // Declared fields in the schema's order, then the other keys in the arguments' order: the
    // reference walks the same way, so both name the same field first.
    const declared = restWalk && constant(new Set(Object.keys(node.fields ?? {})));
    const others = restWalk
      ? `for (const key of Object.keys(record)) { if (${declared}.has(key)) continue; field = record[key]; ${restWalk} }`
      : '';
    functions.push(
      `function ${name}(value, walk) { if (Array.isArray(value)) return value; let record = value; ${removeNulls}
let result = record, field, repaired;
${fields.join('\n')}
${others}
return result; }`,
    );
    return name;
  };

  const root = emit(plan.root);
  const source = `"use strict";
const { ${Object.keys(HELPERS).join(', ')} } = helpers;
const [${constants.map((_, index) => `k${index}`).join(', ')}] = constants;
${functions.join('\n')}
return ${root.visit};`;
  return new Function('helpers', 'constants', source)(HELPERS, constants) as PlanWalk;
}

/** A text step's call; an enum's members, when they are few, matched first without one. */
function textSource({ fold }: PlanNode, step: string): string {
  const call = `${step}(value, walk)`;
  if (!fold || fold.length > 8) return call;
  return `(${fold.map((member) => `value === ${JSON.stringify(member)}`).join(' || ')} ? value : ${call})`;
}

/** A scalar as JavaScript source that `===` matches, where JSON can write it. */
function jsonLiteral(value: unknown): string | undefined {
  if (typeof value === 'string' || typeof value === 'boolean' || value === null) return JSON.stringify(value);
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : undefined;
}

/** Whether any key, inherited ones included, holds `null`: a cheap first look for `nullAbsent`. */
function hasNullValue(record: Record<string, unknown>): boolean {
  for (const key in record) if (record[key] === null) return true;
  return false;
}

/**
 * A child walked where its node does something to a value of its kind (most positions hold
 * nothing), then `onRepaired` where the walk changed it; nothing where the node never acts.
 */
function childSource(node: Emitted | undefined, value: string, key: string, onRepaired: string): string {
  const guard = node && guardOf(node, value);
  if (!node || !guard) return '';
  return `if (${guard}) { walk.path.push(${key}); repaired = ${node.visit}(${value}, walk); walk.path.pop(); if (repaired !== ${value}) ${onRepaired} }`;
}

function guardOf({ text, structure, lone }: Emitted, value: string): string | undefined {
  // A lone-value repair looks at any value.
  if (lone) return 'true';
  const isText = `typeof ${value} === 'string'`;
  const isStructure = `(typeof ${value} === 'object' && ${value} !== null)`;
  if (text && structure) return `${isText} || ${isStructure}`;
  return text ? isText : structure ? isStructure : undefined;
}

/** A node's visit: the depth checked, then text, a lone value or structure, as `visit` in the closures. */
function visitSource({ text, structure, lone, visit }: Emitted): string {
  const onText = lone ? `isOneValueText(value) ? ${lone}(value, walk) : value` : 'value';
  return `function ${visit}(value, walk) { if (walk.path.length > walk.maxDepth) throw tooDeep(walk.path, walk.maxDepth);
if (typeof value === 'string') { ${text ? `value = ${text}; if (typeof value === 'string') ` : ''}return ${onText}; }
if (typeof value !== 'object' || value === null) return ${lone ? `value != null ? ${lone}(value, walk) : value` : 'value'};
${lone ? `if (!Array.isArray(value)) return ${lone}(value, walk);` : ''}
return ${structure ? `${structure}(value, walk)` : 'value'}; }`;
}
