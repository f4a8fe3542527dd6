import type { Plan, PlanNode } from '../manifest/plan.js';
import {
  definitionOf,
  type PlanWalk,
  type PlanWalks,
  type Steps,
  stepsOf,
  structureParts,
  type Walk,
} from '../manifest/plan-walk.js';
import { withoutAbsentNulls } from './inverse.js';
import { isOneValueText, tooDeep } from './json-text.js';
import { compileText, listAccepted, variantPicker, withRepairedField } from './plan-steps.js';

/**
 * A plan compiled into closures that walk arguments by it: the walk of a plan made at run time
 * (`applyPlan`, `prepareToolSet`), where the build wrote none as code (src/emit/plan-walk.ts).
 */

/** A tool's walks by closures, for the steps indexes its calls can ask: for a set made at run time. */
export function closureWalks(plan: Plan, indexes: readonly number[]): PlanWalks {
  const walks: (PlanWalk | undefined)[] = [];
  for (const index of indexes) walks[index] = closureWalk(plan, stepsOf(index));
  return walks;
}

/** One plan position's repair of a value of one kind: returns the value, or a repaired copy. */
type Step<Value> = (value: Value, walk: Walk) => unknown;

/**
 * A plan node compiled into what it does to text, to structure, and (`loneValue`) to a value that
 * is no list where only a list is taken; each is absent when the node does nothing to that kind of
 * value, so the walk never descends there.
 */
interface Compiled {
  text?: Step<string>;
  structure?: Step<object>;
  lone?: Step<unknown>;
}

export function closureWalk(plan: Plan, steps: Steps): PlanWalk {
  const shared = new Map<string, Compiled>();

  const compile = (node: PlanNode): Compiled => {
    if (node.ref === undefined) {
      const structure = compileStructure(node);
      return { text: compileText(node, steps), structure, lone: compileLone(node, structure) };
    }
    const name = node.ref;
    const definition = definitionOf(plan, name);
    // Compiled on first visit, so that a recursive definition can refer to itself.
    const visitShared = (value: unknown, walk: Walk) => {
      let target = shared.get(name);
      if (!target) {
        target = compile(definition);
        shared.set(name, target);
      }
      return visit(target, value, walk);
    };
    return { text: visitShared, structure: visitShared, lone: visitShared };
  };

  /** `loneValue`: the value as a one-item list, its item repaired, when the list's check accepts it. */
  const compileLone = (node: PlanNode, structure: Compiled['structure']): Compiled['lone'] => {
    const check = node.lone;
    if (!check) return undefined;
    return (value, walk) => {
      const list = [value];
      const repaired = structure ? (structure(list, walk) as unknown[]) : list;
      return listAccepted(check, repaired, walk) ? repaired : value;
    };
  };

  const compileStructure = (node: PlanNode): Compiled['structure'] => {
    const { sides, onArray, onObject, single } = structureParts(node, {
      structureOf: (other) => compile(other).structure,
      items: compileItems,
      variants: compileVariants,
      fields: compileFields,
    });
    if (single) return onArray ?? onObject;
    return (value, walk) => {
      for (const side of sides) value = side(value, walk) as object;
      if (Array.isArray(value)) return onArray ? onArray(value, walk) : value;
      return onObject ? onObject(value, walk) : value;
    };
  };

  const compileVariants = (
    tag: string,
    variants: NonNullable<PlanNode['variants']>,
  ): Compiled['structure'] => {
    const structures = variants.map(({ node }) => compile(node).structure);
    if (!structures.some((structure) => structure)) return undefined;
    const pick = variantPicker(variants, steps);
    return (record, walk) => {
      if (Array.isArray(record)) return record;
      const structure = structures[pick((record as Record<string, unknown>)[tag])];
      return structure ? structure(record, walk) : record;
    };
  };

  const compileItems = (node: PlanNode): Compiled['structure'] => {
    if (!node.items && !node.tuple) return undefined;
    const tuple = (node.tuple ?? []).map((item) => (item ? compile(item) : undefined));
    const rest = node.items && compile(node.items);
    return (value, walk) => {
      if (!Array.isArray(value)) return value;
      let result: unknown[] | undefined;
      for (let index = 0; index < value.length; index++) {
        const item: unknown = value[index];
        const repaired = visitChild(index < tuple.length ? tuple[index] : rest, item, index, walk);
        if (repaired !== item) {
          result ??= value.slice();
          result[index] = repaired;
        }
      }
      return result ?? value;
    };
  };

  const compileFields = (node: PlanNode): Compiled['structure'] => {
    // Fields whose node does nothing here (a case repair this call does not ask for) are left out.
    const walked = Object.entries(node.fields ?? {})
      .map(([key, field]) => [key, compile(field)] as const)
      .filter(([, field]) => field.text || field.structure);
    const keys = walked.map(([key]) => key);
    const fields = walked.map(([, field]) => field);
    // Keys the object declares: the catch-all walks every other key.
    const declared = new Set(Object.keys(node.fields ?? {}));
    const rest = node.rest && compile(node.rest);
    const nullAbsent = steps.nullAbsent ? node.nullAbsent : undefined;
    const beyond = steps.nullAbsent && node.nullAbsentBeyond ? new Set(node.nullAbsentBeyond) : undefined;
    if (walked.length === 0 && !rest && !nullAbsent && !beyond) return undefined;
    // Declared fields in the schema's order, then (with a catch-all) the other keys in the
    // arguments' order: the reference walks the same way, so both name the same field first.
    return (value, walk) => {
      if (Array.isArray(value)) return value;
      let record = value as Record<string, unknown>;
      if (nullAbsent || beyond) record = withoutAbsentNulls(record, nullAbsent, beyond);
      // No closure made per call: the loops call a function of the module.
      let result = record;
      for (let index = 0; index < keys.length; index++)
        result = repairField(value, result, record, fields[index], keys[index] as string, walk);
      if (rest)
        for (const key of Object.keys(record))
          if (!declared.has(key)) result = repairField(value, result, record, rest, key, walk);
      return result;
    };
  };

  const root = compile(plan.root);
  return (value, walk) => visit(root, value, walk);
}

function visit(node: Compiled, value: unknown, walk: Walk): unknown {
  if (walk.path.length > walk.maxDepth) throw tooDeep(walk.path, walk.maxDepth);
  if (typeof value === 'string') {
    if (node.text) value = node.text(value, walk);
    // Text that may be a list written by hand, or a truncated one, is no one value: left to the parser.
    if (typeof value === 'string') return node.lone && isOneValueText(value) ? node.lone(value, walk) : value;
  }
  if (typeof value !== 'object' || value === null)
    return node.lone && value != null ? node.lone(value, walk) : value;
  if (node.lone && !Array.isArray(value)) return node.lone(value, walk);
  return node.structure ? node.structure(value, walk) : value;
}

/** Visits a child, unless its node does nothing to a value of its kind: most positions hold nothing. */
function visitChild(node: Compiled | undefined, value: unknown, key: string | number, walk: Walk): unknown {
  if (
    !node ||
    (!node.lone &&
      (typeof value === 'string'
        ? !node.text
        : typeof value !== 'object' || value === null || !node.structure))
  )
    return value;
  walk.path.push(key);
  const repaired = visit(node, value, walk);
  walk.path.pop();
  return repaired;
}

/**
 * One field of `record` (the caller's `value`, or our copy without its absent nulls) walked: the
 * result so far, or a copy of it with the field repaired. The caller's object is copied once, on
 * the first repair; a copy of ours is repaired in place. An inherited value is walked as Zod will
 * read it, but only an own one is replaced.
 */
function repairField(
  value: object,
  result: Record<string, unknown>,
  record: Record<string, unknown>,
  node: Compiled | undefined,
  key: string,
  walk: Walk,
): Record<string, unknown> {
  const field = record[key];
  const repaired = visitChild(node, field, key, walk);
  return repaired === field ? result : withRepairedField(result, value, record, key, repaired);
}
