import type { ListCheck, Plan, PlanNode, Position } from './plan.js';
import type { PreparedTool } from './prepared-tool.js';
import { INVERSE_STEPS, type InverseStep, PROFILE_NAMES, type ProfileName } from './profiles.js';

/**
 * A plan's walk as code: the generated module holds one per tool, written at build time from its
 * plan (decision 0055), and the runtime calls it. This is the contract between the two: what the
 * generated code is handed (`PlanWalkHelpers`), once for every tool (decision 0070), and what it
 * gives (`PlanWalks`).
 */

/** Answers a check the build deferred to an array member's own parser: is `value` accepted at `position`? */
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

/** The `nullAbsent` and `caseFold` steps a walk runs: one walk is made for each set a tool's calls ask. */
export interface Steps {
  readonly nullAbsent: boolean;
  readonly caseFold: boolean;
}

/** A plan walked over arguments: returned as they are, or as a repaired copy. */
export type PlanWalk = (value: unknown, walk: Walk) => unknown;

/** A tool's walks by steps index (`stepsIndex`); absent where no call of the tool runs those steps. */
export type PlanWalks = readonly (PlanWalk | undefined)[];

/** What a node does to text (`parse`, `scalar`, `refuse`, `fold`): the step is made from these. */
export type TextNode = Pick<PlanNode, 'parse' | 'scalar' | 'refuse' | 'fold'>;

/** What the runtime hands a tool's generated walk: the leaf steps, which are the same for every plan. */
export interface PlanWalkHelpers {
  readonly text: (node: TextNode, steps: Steps) => ((text: string, walk: Walk) => unknown) | undefined;
  readonly picker: (
    variants: readonly { readonly tags: readonly unknown[] }[],
    steps: Steps,
  ) => (tag: unknown) => number;
  readonly listAccepted: (check: ListCheck, list: readonly unknown[], walk: Walk) => boolean;
  readonly withoutAbsentNulls: (
    record: Record<string, unknown>,
    listed: readonly string[] | undefined,
    beyond: ReadonlySet<string> | undefined,
  ) => Record<string, unknown>;
  readonly hasNullValue: (record: Record<string, unknown>) => boolean;
  readonly isOneValueText: (text: string) => boolean;
  readonly tooDeep: (path: readonly (string | number)[], maxDepth: number) => Error;
  readonly withRepairedField: (
    result: Record<string, unknown>,
    value: unknown,
    record: Record<string, unknown>,
    key: string,
    repaired: unknown,
  ) => Record<string, unknown>;
}

/** A tool's entry among the generated walks: run once, on the tool's first call. */
export type PlanWalkFactory = () => PlanWalks;

/** The steps a walk index stands for: bit 0 `nullAbsent`, bit 1 `caseFold`. */
export const stepsOf = (index: number): Steps => ({
  nullAbsent: (index & 1) === 1,
  caseFold: (index & 2) === 2,
});

/** The walk a call runs: the plan's own repairs and the inverse steps of the call's profile. */
export function stepsIndex(plan: Plan, inverse: readonly InverseStep[] | undefined): number {
  const runs = (step: InverseStep) =>
    (inverse?.includes(step) ?? false) || (plan.repairs?.includes(step) ?? false);
  return (runs('nullAbsent') ? 1 : 0) + (runs('caseFold') ? 2 : 0);
}

/**
 * The inverse steps a call through `profile` runs: those of the profile the tool is actually sent
 * with, where it falls back (OpenAI's non-strict calling needs none beyond the plan's repairs).
 */
export function inverseStepsToRun(tool: PreparedTool, profile: ProfileName): readonly InverseStep[] {
  const fallback = tool.profiles?.[profile]?.fallback;
  if (fallback === undefined) return INVERSE_STEPS[profile];
  return fallback === 'openai' ? [] : INVERSE_STEPS[fallback];
}

/** The steps indexes a tool's calls can ask: its plan's own, and one per profile it was prepared for. */
export function stepsIndexesOf(tool: PreparedTool): number[] {
  const indexes = new Set([stepsIndex(tool.plan, undefined)]);
  for (const profile of PROFILE_NAMES)
    if (tool.profiles?.[profile]) indexes.add(stepsIndex(tool.plan, inverseStepsToRun(tool, profile)));
  return [...indexes].sort();
}

/** How a walk's compiler makes each part of a node's structure walk (a closure, or a function's name). */
export interface StructureParts<Part> {
  /** What another node does to structure. */
  readonly structureOf: (node: PlanNode) => Part | undefined;
  readonly items: (node: PlanNode) => Part | undefined;
  readonly variants: (tag: string, variants: NonNullable<PlanNode['variants']>) => Part | undefined;
  readonly fields: (node: PlanNode) => Part | undefined;
}

/**
 * What a node does to structure, chosen the same way by both compilers (the build's code and the
 * closures): the sides of an intersection, then what an array and what an object gets. Each of the
 * two leaves a value of the other kind as it is, so one alone, with no sides, needs no dispatch
 * (`single`).
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
