import type { RepairName } from '../manifest/plan.js';
import type { JsonSchema } from '../shared/json-schema/schema.js';

/**
 * What a type's coercing parser (`z.coerce.…()`, `def.coerce`) does beside the type itself: a fact
 * of the type's row in a library's table (`zod4/def.ts`, `zod3/def.ts`).
 */
export interface CoercedFacts {
  /** What the input side shows it taking, where the type itself has no JSON (a date's ISO text). */
  readonly input?: JsonSchema;
  /** How it misreads what models send: a warning at build time. */
  readonly misreads?: Misreading;
}

/**
 * A parser known to misread what models send (`z.coerce.boolean()` reads `"false"` as `true`): what
 * it gets wrong, and what toolprep's own repair does instead. Found at build time and reported as
 * a warning; the parser is left as it is.
 */
export interface Misreading {
  /**
   * Where it misreads: at any position, or only under a key that may be left out (a model sends
   * `""` for a value it does not have).
   */
  readonly where: 'anywhere' | 'optional key';
  /** The parser as the user wrote it: `z.coerce.boolean()`. */
  readonly parser: string;
  /** What it does wrong, after its name: `reads every non-empty string as true: "false" is true`. */
  readonly misreads: string;
  /**
   * What to write instead, and what toolprep's repair then does: `use z.boolean(): toolprep turns
   * "false" into false before the parser runs`.
   */
  readonly instead: string;
  /** The repair `instead` counts on. */
  readonly repair: RepairName;
}

/** Zod's coercing parsers that misread model output, the same in Zod 3 and Zod 4. */
export const ZOD_MISREADINGS = {
  boolean: {
    where: 'anywhere',
    parser: 'z.coerce.boolean()',
    misreads: 'reads every non-empty string as true: "false" is true',
    instead: 'use z.boolean(): toolprep turns "false" into false before the parser runs',
    repair: 'scalarText',
  },
  number: {
    where: 'optional key',
    parser: 'z.coerce.number()',
    misreads: 'reads "" as 0 where the key may be left out',
    instead: 'use z.number(): toolprep turns "42" into 42 before the parser runs, and "" is refused',
    repair: 'scalarText',
  },
} as const satisfies Record<string, Misreading>;

/** A coercing parser's date: shown on the input side as the ISO text it is nominally given. */
export const DATE_TIME_TEXT = { type: 'string', format: 'date-time' } as const;
