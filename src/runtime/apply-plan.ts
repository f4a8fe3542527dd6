import type { ListCheck, Plan, PlanNode } from '../manifest/plan.js';
import { listAsText, parseJsonText, structureKind, tooDeep, withOwn } from './json-text.js';
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
   * schema at `path` in the contract? The runner supplies it from the loaded contract.
   */
  acceptsAt?: (path: readonly (string | number)[], value: unknown) => boolean;
}

interface Walk {
  readonly plan: Plan;
  readonly maxDepth: number;
  readonly acceptsAt: ApplyPlanOptions['acceptsAt'];
}

/**
 * Applies a coercion plan to arguments: parses double-serialised structure where the schema wants
 * it and refuses a list written as text. The input is never mutated; a repaired position is copied.
 * Throws a `CoercionRefusal` naming the field's path.
 */
export function applyPlan(plan: Plan, args: unknown, options: ApplyPlanOptions = {}): unknown {
  return apply(plan.root, args, [], { plan, maxDepth: options.maxDepth ?? 64, acceptsAt: options.acceptsAt });
}

function apply(node: PlanNode, value: unknown, path: Path, walk: Walk): unknown {
  if (path.length > walk.maxDepth) throw tooDeep(path, walk.maxDepth);
  if (node.ref !== undefined) {
    const shared = walk.plan.defs?.[node.ref];
    if (!shared)
      throw new Error(
        `[toolprep] plan refers to a missing definition "${node.ref}"; this is a bug in toolprep`,
      );
    return apply(shared, value, path, walk);
  }
  if (typeof value === 'string') {
    if (node.refuse) refuseListAsText(node.refuse, value, path, walk);
    if (!node.parse) return value;
    const parsed = parseJsonText(value, path, walk.maxDepth);
    const kind = structureKind(parsed);
    if (parsed === parseJsonText.NOT_JSON || !kind || !node.parse.includes(kind)) return value;
    value = parsed;
  }
  if (typeof value !== 'object' || value === null) return value;
  if (node.all) for (const side of node.all) value = apply(side, value, path, walk);
  if (Array.isArray(value)) {
    if (node.array) return apply(node.array, value, path, walk);
    return node.items || node.tuple ? applyToItems(node, value, path, walk) : value;
  }
  if (node.object) return apply(node.object, value, path, walk);
  if (node.variants) {
    const tag = (value as Record<string, unknown>)[node.tag as string];
    const variant = node.variants.find((candidate) => candidate.tags.includes(tag));
    return variant ? apply(variant.node, value, path, walk) : value;
  }
  return node.fields || node.rest ? applyToFields(node, value as Record<string, unknown>, path, walk) : value;
}

function applyToItems(node: PlanNode, list: readonly unknown[], path: Path, walk: Walk): readonly unknown[] {
  let result: unknown[] | undefined;
  const tuple = node.tuple ?? [];
  for (let index = 0; index < list.length; index++) {
    const itemNode = index < tuple.length ? tuple[index] : node.items;
    if (!itemNode) continue;
    const item = list[index];
    path.push(index);
    const repaired = apply(itemNode, item, path, walk);
    path.pop();
    if (repaired !== item) {
      result ??= list.slice();
      result[index] = repaired;
    }
  }
  return result ?? list;
}

function applyToFields(
  node: PlanNode,
  record: Record<string, unknown>,
  path: Path,
  walk: Walk,
): Record<string, unknown> {
  let result = record;
  for (const key of Object.keys(record)) {
    const fieldNode = node.fields && Object.hasOwn(node.fields, key) ? node.fields[key] : node.rest;
    if (!fieldNode) continue;
    const field = record[key];
    path.push(key);
    const repaired = apply(fieldNode, field, path, walk);
    path.pop();
    if (repaired !== field) result = withOwn(result, key, repaired);
  }
  return result;
}

function refuseListAsText(checks: readonly ListCheck[], text: string, path: Path, walk: Walk): void {
  if (!/^\s*\[/.test(text)) return;
  const parsed = parseJsonText(text, path, walk.maxDepth);
  if (!Array.isArray(parsed)) return;
  const accepted = checks.some((check) => {
    if (!('defer' in check)) return listCheckAccepts(check, parsed);
    if (!walk.acceptsAt) {
      throw new Error(
        '[toolprep] this plan defers a check to the contract; pass `acceptsAt` to applyPlan (the runner does)',
      );
    }
    return walk.acceptsAt(check.defer, parsed);
  });
  if (accepted) throw listAsText(path);
}
