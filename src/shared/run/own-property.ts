/** A copy of `record` with `key` set as an own property, whatever the key (`__proto__` included). */
export function withOwn(record: object, key: string, value: unknown): Record<string, unknown> {
  return setOwn({ ...record }, key, value);
}

/** Sets `key` as an own property, whatever the key: assignment to `__proto__` would set a prototype. */
export function setOwn(
  target: Record<string, unknown>,
  key: string,
  value: unknown,
): Record<string, unknown> {
  // Plain assignment for every other key: a defined property costs a descriptor on every call.
  if (key === '__proto__')
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
  return target;
}

/** The entries of `record` whose keys are in `keys`, and the rest, each as own properties. */
export function splitKeys(
  record: Record<string, unknown>,
  keys: readonly string[],
): { picked: Record<string, unknown>; rest: Record<string, unknown> } {
  if (keys.length === 0) return { picked: {}, rest: record };
  const picked: Record<string, unknown> = {};
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(record)) {
    setOwn(keys.includes(key) ? picked : rest, key, record[key]);
  }
  return { picked, rest };
}

/**
 * `record[key]` when `key` is the record's own property, else undefined: a key a user named
 * `constructor` or `__proto__` is no field of a record that does not declare it.
 */
export function getOwn<T>(record: Readonly<Record<string, T>> | undefined, key: string): T | undefined {
  return record !== undefined && Object.hasOwn(record, key) ? record[key] : undefined;
}
