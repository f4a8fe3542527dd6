/**
 * A field's path as messages name it, from a path into a JSON Schema document:
 * `["properties","files","items","properties","modified"]` → `files[].modified`.
 */
export function fieldPath(path: readonly (string | number)[]): string {
  let field = '';
  for (let index = 0; index < path.length; index++) {
    const segment = path[index];
    const next = path[index + 1];
    if (segment === 'properties' || segment === '$defs' || segment === 'definitions') {
      // A field named with the empty string is named, not the root.
      const name = next === '' ? '""' : String(next);
      field += field ? `.${name}` : name;
      index++;
    } else if (segment === 'items' && !isIndex(next)) {
      field += '[]';
    } else if ((segment === 'prefixItems' || segment === 'items') && isIndex(next)) {
      field += `[${next}]`;
      index++;
    } else if (segment === 'additionalProperties') {
      field += '.*';
    } else if (segment === 'anyOf' || segment === 'oneOf' || segment === 'allOf') {
      index++;
    }
  }
  return field || '(root)';
}

/** A tuple's place: a number, or its text (zod-to-json-schema writes paths as strings). */
function isIndex(segment: unknown): boolean {
  return typeof segment === 'number' || (typeof segment === 'string' && /^\d+$/.test(segment));
}
