import type { ListCheck } from '../manifest/plan.js';
import type { PlanWalkHelpers, Steps, TextNode, Walk } from '../manifest/plan-walk.js';
import { setOwn } from '../shared/run/own-property.js';
import { caseFolder, sameIgnoringCase, withoutAbsentNulls } from './inverse.js';
import { isOneValueText, jsonKind, listAsText, NOT_JSON, parseJsonText, tooDeep } from './json-text.js';
import { listCheckAccepts } from './value-check.js';

/**
 * What the leaves of a plan's walk do: handed to the walk the build generated for each tool
 * (`PLAN_WALK_HELPERS`), and used by the closures that walk a plan made at run time.
 */

/** What a node does to text: parse structure or a scalar, refuse a list written as text, fold case. */
export function compileText(
  { parse, scalar, refuse, fold }: TextNode,
  steps: Steps,
): ((text: string, walk: Walk) => unknown) | undefined {
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
export function listAccepted(check: ListCheck, list: readonly unknown[], walk: Walk): boolean {
  if (!('defer' in check)) return listCheckAccepts(check, list);
  // A runner passes it for every plan that says it defers (`plan.defers`).
  if (!walk.acceptsAt) throw new Error('[toolprep] a plan that defers a check needs `acceptsAt`');
  return walk.acceptsAt(check.defer, list);
}

/** The variant a discriminated union's tag picks: the first listing it, or (`caseFold`) the one matching it ignoring case. */
export function variantPicker(
  variants: readonly { readonly tags: readonly unknown[] }[],
  steps: Steps,
): (tag: unknown) => number {
  const byTag = new Map<unknown, number>();
  variants.forEach(({ tags }, index) => {
    for (const value of tags) if (!byTag.has(value)) byTag.set(value, index);
  });
  return (tag) => {
    const index = byTag.get(tag);
    if (index !== undefined || !steps.caseFold || typeof tag !== 'string') return index ?? -1;
    const matching = variants.flatMap(({ tags }, candidate) =>
      tags.some((other) => typeof other === 'string' && sameIgnoringCase(other, tag)) ? [candidate] : [],
    );
    return matching.length === 1 ? (matching[0] as number) : -1;
  };
}

/** Whether any key, inherited ones included, holds `null`: a cheap first look for `nullAbsent`. */
function hasNullValue(record: Record<string, unknown>): boolean {
  for (const key in record) if (record[key] === null) return true;
  return false;
}

/**
 * `result` with its field `key` repaired, the caller's `value` copied on the first repair (a copy
 * of ours is repaired in place); unchanged where the key is inherited: walked as Zod will read it,
 * but only an own key is replaced.
 */
export function withRepairedField(
  result: Record<string, unknown>,
  value: unknown,
  record: Record<string, unknown>,
  key: string,
  repaired: unknown,
): Record<string, unknown> {
  if (!Object.hasOwn(record, key)) return result;
  const owned = result === value ? { ...record } : result;
  setOwn(owned, key, repaired);
  return owned;
}

export const PLAN_WALK_HELPERS: PlanWalkHelpers = {
  text: compileText,
  picker: variantPicker,
  listAccepted,
  withoutAbsentNulls,
  hasNullValue,
  isOneValueText,
  tooDeep,
  withRepairedField,
};
