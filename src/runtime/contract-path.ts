/**
 * Finds the schema at a path the build recorded (`input`, then `_zod.def` keys: `shape`, a field,
 * `options`, an index, `innerType`, `~lazy`, …) in a loaded contract, and answers whether it accepts
 * a value through Standard Schema. The runtime reads the contract's schemas without importing Zod.
 */
export function acceptsAtPath(
  roots: Record<string, unknown>,
  path: readonly (string | number)[],
  value: unknown,
): boolean {
  return standardAccepts(schemaAtPath(roots, path), value);
}

/** Runs a schema's own parser through Standard Schema, without importing its library. */
export function standardAccepts(schema: unknown, value: unknown): boolean {
  const result = (schema as StandardSchema)['~standard'].validate(value);
  // An async schema cannot decide synchronously; the string then stays a plain value.
  return !(result instanceof Promise) && result.issues === undefined;
}

interface StandardSchema {
  '~standard': { validate(value: unknown): { issues?: unknown } | Promise<unknown> };
}

function schemaAtPath(roots: Record<string, unknown>, path: readonly (string | number)[]): unknown {
  const [root, ...steps] = path;
  let current: unknown = roots[root as string];
  let inDef = false;
  for (const step of steps) {
    if (!inDef && step === '~lazy') {
      current = (current as { _zod: { innerType: unknown } })._zod.innerType;
      continue;
    }
    // A step from a schema enters its definition; from inside a definition it indexes plainly.
    const container: unknown = inDef ? current : (current as { _zod: { def: unknown } })._zod.def;
    current = (container as Record<string | number, unknown>)[step];
    inDef = !isSchema(current);
  }
  if (!isSchema(current)) {
    throw new Error(
      `[toolprep] no schema at ${path.join('.')} in the loaded contract; regenerate the manifest (this may be a bug in toolprep)`,
    );
  }
  return current;
}

function isSchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '_zod' in value;
}
