/** A name JavaScript takes as a property name after a dot, or as a key without quotes. */
export const isIdentifier = (name: string): boolean => /^[A-Za-z_$][\w$]*$/.test(name);

/**
 * A name as an object literal's own key: bare when it can be, quoted, and computed for
 * `__proto__` (which, written `__proto__: value`, sets the prototype instead).
 */
export const ownKeyOf = (name: string): string =>
  name === '__proto__' ? '["__proto__"]' : isIdentifier(name) ? name : JSON.stringify(name);

/** A property access as written after a value: `.readFiles`, `["read-file"]`, `[0]`. */
function accessOf(key: string | number): string {
  if (typeof key === 'number') return `[${key}]`;
  return isIdentifier(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/**
 * Where a contract is in its module's exports, as a property access after the module:
 * `.readFiles`, `.tools.search`, `.tools[0]`, `["read-file"]`.
 */
export function exportAccess(exportName: string, member?: string | number): string {
  return accessOf(exportName) + (member === undefined ? '' : accessOf(member));
}

/**
 * The same, as toolprep names it in the manifest and in messages: `readFiles`, `tools.search`,
 * `tools[0]`; deeper with more members (`all.group.read`, for a contract a loaded value holds).
 */
export function exportPath(exportName: string, ...members: (string | number | undefined)[]): string {
  const path = members.reduce<string>(
    (at, member) => (member === undefined ? at : at + accessOf(member)),
    '',
  );
  return (accessOf(exportName) + path).replace(/^\./, '');
}
