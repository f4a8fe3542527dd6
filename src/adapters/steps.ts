import type { Position } from '../manifest/plan.js';

/** Where each kind of position step leads from one schema, as a library's finder reads it. */
export interface StepTargets<Schema> {
  /** `.name`: a property. */
  field(name: string): Schema | undefined;
  /** `[]`: an array's items, or a tuple's rest. */
  items(): Schema | undefined;
  /** `[2]`: a tuple's item. */
  item(index: number): Schema | undefined;
  /** `{}`: a record's values, or an object's undeclared keys. */
  values(): Schema | undefined;
  /** `|1`: a union's member as written. */
  member(index: number): Schema | undefined;
  /** `&0`, `&1`: an intersection's side. */
  side(index: number): Schema | undefined;
  /** `="create"`: a discriminated union's variant by its tag. */
  variant(tag: unknown): Schema | undefined;
}

/**
 * Follows a position's steps from a root (see `Position`): the one reading of the step grammar,
 * for every library's finder. `targetsOf` looks through a schema's wrappers and says where each
 * step leads from it.
 */
export function followSteps<Schema>(
  root: Schema | undefined,
  steps: Position,
  targetsOf: (schema: Schema) => StepTargets<Schema>,
): Schema | undefined {
  let schema = root;
  for (const step of steps) {
    if (schema === undefined) return undefined;
    const targets = targetsOf(schema);
    const rest = step.slice(1);
    switch (step[0]) {
      case '.':
        schema = targets.field(rest);
        break;
      case '[':
        schema = step === '[]' ? targets.items() : targets.item(Number(rest.slice(0, -1)));
        break;
      case '{':
        schema = targets.values();
        break;
      case '|':
        schema = targets.member(Number(rest));
        break;
      case '&':
        schema = targets.side(Number(rest));
        break;
      default:
        schema = targets.variant(JSON.parse(rest));
    }
  }
  return schema;
}
