import type { RuntimeAdapter, StandardResult } from '../../manifest/tool-set.js';
import type { Zod3Schema } from './def.js';
import { isZod3 } from './identify.js';

interface Zod3Parser {
  safeParse(value: unknown): Zod3Result;
  safeParseAsync(value: unknown): Promise<Zod3Result>;
  readonly '~standard'?: { validate(value: unknown): StandardResult | Promise<StandardResult> };
}

type Zod3Result =
  | { readonly success: true; readonly data: unknown }
  | {
      readonly success: false;
      readonly error: { readonly issues: readonly { message: string; path: unknown[] }[] };
    };

/**
 * Zod 3 at run time (`toolprep/runtime/zod3`): `zod@3` from 3.23, and `zod/v3` of zod 3.25. Its
 * parser runs through Standard Schema where the copy has it (3.24 and later), else through
 * `safeParse`, falling back to `safeParseAsync` only for a schema that needs it.
 */
export const zod3: RuntimeAdapter = {
  name: 'zod3',
  owns: isZod3,
  keysOf: (schema) => Object.keys((schema as Zod3Schema)._def.shape?.() ?? {}),
  validate(schema, value) {
    const parser = schema as Zod3Parser;
    if (parser['~standard']) return parser['~standard'].validate(value);
    try {
      return standardResult(parser.safeParse(value));
    } catch (error) {
      if (!/^Asynchronous/.test((error as Error).message)) throw error;
      return parser.safeParseAsync(value).then(standardResult);
    }
  },
  locate: () => import('./locate.js').then((module) => module.schemaAt),
};

function standardResult(result: Zod3Result): StandardResult {
  return result.success ? { value: result.data } : { issues: result.error.issues };
}
