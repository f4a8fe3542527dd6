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
