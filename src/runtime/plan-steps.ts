import type { ListCheck, Plan, PlanNode, Position } from '../manifest/plan.js';
import { caseFolder, sameIgnoringCase } from './inverse.js';
import { jsonKind, listAsText, NOT_JSON, parseJsonText } from './json-text.js';
import { listCheckAccepts } from './value-check.js';

/**
 * What the leaves of a plan's walk do, shared by its two compilers (`plan-closures.ts`, which runs
 * everywhere, and `plan-code.ts`, which generates the same walk as code where that is allowed).
 */

/** Answers a check the build deferred to an array member's own parser (see `ApplyPlanOptions`). */
export type AcceptsAt = (position: Position, value: unknown) => boolean;

/**
 * The position being walked: one array per call, pushed and popped as the walk descends, so that
 * visiting a field allocates nothing. A refusal copies it; a throw ends the walk, so no pop is owed.
 */
export interface Walk {
  readonly path: (string | number)[];
  readonly maxDepth: number;
  readonly acceptsAt: AcceptsAt | undefined;
}

/** The `nullAbsent` and `caseFold` steps a compiled walk runs: compiled once for each set asked for. */
export interface Steps {
  readonly nullAbsent: boolean;
  readonly caseFold: boolean;
}

/** A compiled plan: the arguments walked, returned as they are or as a repaired copy. */
export type PlanWalk = (value: unknown, walk: Walk) => unknown;

/** What a node does to text: parse structure or a scalar, refuse a list written as text, fold case. */
export function compileText(
  { parse, scalar, refuse, fold }: PlanNode,
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

/** How a compiler makes each part of a node's structure walk (a closure, or a function's name). */
export interface StructureParts<Part> {
  /** What another node does to structure. */
  readonly structureOf: (node: PlanNode) => Part | undefined;
  readonly items: (node: PlanNode) => Part | undefined;
  readonly variants: (tag: string, variants: NonNullable<PlanNode['variants']>) => Part | undefined;
  readonly fields: (node: PlanNode) => Part | undefined;
}

/**
 * What a node does to structure, chosen the same way for both compilers: the sides of an
 * intersection, then what an array and what an object gets. Each of the two leaves a value of the
 * other kind as it is, so one alone, with no sides, needs no dispatch (`single`).
 */
export function structureParts<Part>(
  node: PlanNode,
  parts: StructureParts<Part>,
): { sides: Part[]; onArray?: Part; onObject?: Part; single: boolean } {
  const sides = (node.all ?? []).map(parts.structureOf).filter((side) => side !== undefined);
  const onArray = node.array ? parts.structureOf(node.array) : parts.items(node);
  const onObject = node.object
    ? parts.structureOf(node.object)
    : node.variants
      ? parts.variants(node.tag as string, node.variants)
      : parts.fields(node);
  return { sides, onArray, onObject, single: !sides.length && !(onArray && onObject) };
}

/**
 * The definition a plan's `ref` names. The build writes every definition it refers to, so a plan
 * without it was written otherwise: by a toolprep of another release within the same format, or
 * by a bug.
 */
export function definitionOf(plan: Plan, name: string): PlanNode {
  const definition = plan.defs && Object.hasOwn(plan.defs, name) ? plan.defs[name] : undefined;
  if (definition) return definition;
  throw new Error(
    `[toolprep] the plan has no definition "${name}": if another release of toolprep generated the tools, run toolprep generate; if this one did, this is a bug in toolprep`,
  );
}
