import type { ListCheck, Plan, PlanNode, Position } from '../manifest/plan.js';
import type { InverseStep } from '../manifest/profiles.js';
import { setOwn } from '../shared/run/own-property.js';
import { caseFolder, sameIgnoringCase, withoutAbsentNulls } from './inverse.js';
import { isOneValueText, jsonKind, listAsText, NOT_JSON, parseJsonText, tooDeep } from './json-text.js';
import { listCheckAccepts } from './value-check.js';

/**
 * The position being walked: one array per call, pushed and popped as the walk descends, so that
 * visiting a field allocates nothing. A refusal copies it; a throw ends the walk, so no pop is owed.
 */
type Path = (string | number)[];

export interface ApplyPlanOptions {
  /** Deeper nesting, in the arguments or in JSON text, is refused. Default 64. */
  maxDepth?: number;
  /**
   * Answers a check the build deferred to an array member's own parser: is `value` accepted by the
   * schema at `position` in the contract? The runner supplies it from the loaded contract.
   */
  acceptsAt?: AcceptsAt;
  /**
   * The inverse steps to run, for a call through a profile (`INVERSE_STEPS[profile]`): they undo
   * how that provider's models answer, before the contract's parser runs, beside the repairs the
   * plan runs on every call (`plan.repairs`). None by default.
   */
  inverse?: readonly InverseStep[];
}

export type AcceptsAt = (position: Position, value: unknown) => boolean;

interface Walk {
  readonly path: Path;
  readonly maxDepth: number;
  readonly acceptsAt: ApplyPlanOptions['acceptsAt'];
}

/** The `nullAbsent` and `caseFold` steps a compiled walk runs: compiled once for each set asked for. */
interface Steps {
  readonly nullAbsent: boolean;
  readonly caseFold: boolean;
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

/**
 * Plans are compiled on first use, once for each set of inverse steps (by its index: bit 0
 * `nullAbsent`, bit 1 `caseFold`): a call then tests only what its plan's positions hold for it.
 */
const compiledPlans = new WeakMap<Plan, Compiled[] & { ownIndex?: number }>();

/**
 * Applies a coercion plan to arguments: parses double-serialised structure where the schema wants
 * it and refuses a list written as text. The input is never mutated; a repaired position is copied.
 * Throws a `CoercionRefusal` naming the field's path.
 */
export function applyPlan(plan: Plan, args: unknown, options?: ApplyPlanOptions): unknown {
  let compiled = compiledPlans.get(plan);
  if (!compiled) {
    compiled = [];
    compiledPlans.set(plan, compiled);
  }
  const inverse = options?.inverse;
  // The index of a call with no inverse steps is the plan's own, kept past the first call.
  let index = inverse === undefined || inverse.length === 0 ? compiled.ownIndex : undefined;
  if (index === undefined) {
    const runs = (step: InverseStep) =>
      (inverse?.includes(step) ?? false) || (plan.repairs?.includes(step) ?? false);
    index = (runs('nullAbsent') ? 1 : 0) + (runs('caseFold') ? 2 : 0);
    if (inverse === undefined || inverse.length === 0) compiled.ownIndex = index;
  }
  let root = compiled[index];
  if (!root) {
    root = compileWalk(plan, { nullAbsent: (index & 1) === 1, caseFold: (index & 2) === 2 });
    compiled[index] = root;
  }
  return visit(root, args, { path: [], maxDepth: options?.maxDepth ?? 64, acceptsAt: options?.acceptsAt });
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

/** A plan compiled into the closures that walk arguments by it, with these inverse steps. */
function compileWalk(plan: Plan, steps: Steps): Compiled {
  const shared = new Map<string, Compiled>();

  const compile = (node: PlanNode): Compiled => {
    if (node.ref === undefined) {
      const structure = compileStructure(node);
      return { text: compileText(node, steps), structure, lone: compileLone(node, structure) };
    }
    const name = node.ref;
    const definition = plan.defs && Object.hasOwn(plan.defs, name) ? plan.defs[name] : undefined;
    if (!definition) throw new Error(`[toolprep] plan refers to a missing definition "${name}"`);
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
    const sides = (node.all ?? [])
      .map((side) => compile(side).structure)
      .filter((side) => side !== undefined);
    const onArray = node.array ? compile(node.array).structure : compileItems(node);
    const onObject = node.object
      ? compile(node.object).structure
      : node.variants
        ? compileVariants(node.tag as string, node.variants)
        : compileFields(node);
    // Each of these leaves a value of the other kind as it is, so one alone needs no dispatch.
    if (!sides.length && !(onArray && onObject)) return onArray ?? onObject;
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
    const compiled = variants.map(({ tags, node }) => ({ tags, structure: compile(node).structure }));
    if (!compiled.some((variant) => variant.structure)) return undefined;
    // Each tag's variant, looked up once per call rather than searched.
    const byTag = new Map<unknown, (typeof compiled)[number]>();
    for (const variant of compiled)
      for (const value of variant.tags) if (!byTag.has(value)) byTag.set(value, variant);
    return (record, walk) => {
      if (Array.isArray(record)) return record;
      const value = (record as Record<string, unknown>)[tag];
      let variant = byTag.get(value);
      if (!variant && steps.caseFold && typeof value === 'string') {
        const matching = compiled.filter((candidate) =>
          candidate.tags.some((other) => typeof other === 'string' && sameIgnoringCase(other, value)),
        );
        if (matching.length === 1) variant = matching[0];
      }
      return variant?.structure ? variant.structure(record, walk) : record;
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

  return compile(plan.root);
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
  if (repaired === field || !Object.hasOwn(record, key)) return result;
  const owned = result === value ? { ...record } : result;
  setOwn(owned, key, repaired);
  return owned;
}

function compileText({ parse, scalar, refuse, fold }: PlanNode, steps: Steps): Compiled['text'] {
  if (fold) return steps.caseFold ? caseFolder(fold) : undefined;
  if (!parse && !scalar && !refuse) return undefined;
  // What JSON text here may become: the structures wanted, and (`scalarText`) the scalars taken.
  const kinds = new Set<string>([...(parse ?? []), ...(scalar ?? [])]);
  return (text, walk) => {
    if (refuse) refuseListAsText(refuse, text, walk);
    if (kinds.size === 0) return text;
    const parsed = parseJsonText(text, walk.path, walk.maxDepth);
    if (parsed === NOT_JSON) return text;
    const kind = jsonKind(parsed);
    return kinds.has(kind) && (kind !== 'number' || Number.isFinite(parsed)) ? parsed : text;
  };
}

function refuseListAsText(checks: readonly ListCheck[], text: string, walk: Walk): void {
  if (!/^\s*\[/.test(text)) return;
  const parsed = parseJsonText(text, walk.path, walk.maxDepth);
  if (!Array.isArray(parsed)) return;
  if (checks.some((check) => listAccepted(check, parsed, walk))) throw listAsText(walk.path);
}

/** Whether a list check accepts a list: as data, or by the member's own parser where it was deferred. */
function listAccepted(check: ListCheck, list: readonly unknown[], walk: Walk): boolean {
  if (!('defer' in check)) return listCheckAccepts(check, list);
  if (!walk.acceptsAt) throw new Error('[toolprep] a deferred check needs `acceptsAt`');
  return walk.acceptsAt(check.defer, list);
}
