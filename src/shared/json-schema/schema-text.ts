/** JSON Schema read aloud: what `inspect` and `check` print for a field. */

import { typesOf, unionMembers } from './kinds.js';
import { propertiesOf, requiredKeys } from './records.js';
import { isSchemaObject as isSchema } from './schema.js';

/**
 * A field's type as a reader expects it: `string`, `"fast" | "exact"`, `string | string[]`,
 * `record<string, number>`, `integer | null`, a definition's name for a reference, `any`.
 */
export function typeText(schema: unknown): string {
  if (!isSchema(schema)) return schema === false ? 'never' : 'any';
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(' | ');
  if (typeof schema.$ref === 'string')
    return schema.$ref === '#' ? 'the whole input' : schema.$ref.replace(/^#\/(\$defs|definitions)\//, '');
  const members = unionMembers(schema);
  if (members) return [...new Set(members.map(typeText))].join(' | ');
  const texts = typesOf(schema).map((type) => {
    if (type === 'array' && Array.isArray(schema.prefixItems)) {
      // A tuple: each place's type, then what any further items take.
      const places = schema.prefixItems.map(typeText);
      const rest =
        schema.items === false || schema.items === undefined ? [] : [`...${typeText(schema.items)}[]`];
      return `[${[...places, ...rest].join(', ')}]`;
    }
    if (type === 'array') {
      const item = typeText(schema.items ?? {});
      return item.includes(' ') ? `(${item})[]` : `${item}[]`;
    }
    if (type === 'object' && !isSchema(schema.properties) && isSchema(schema.additionalProperties))
      return `record<string, ${typeText(schema.additionalProperties)}>`;
    return String(type);
  });
  if (schema.nullable === true) texts.push('null');
  return texts.length > 0 ? texts.join(' | ') : 'any';
}

/** What a field's keywords constrain, in words: `default 10`, `1 to 50`, `at most 5 items`. */
function constraintsText(schema: unknown): string[] {
  if (!isSchema(schema)) return [];
  const words: string[] = [];
  const range = (low: unknown, high: unknown, noun = '') => {
    const unit = (count: number) => (noun === '' ? '' : ` ${noun}${count === 1 ? '' : 's'}`);
    if (typeof low === 'number' && typeof high === 'number') words.push(`${low} to ${high}${unit(high)}`);
    else if (typeof low === 'number') words.push(`at least ${low}${unit(low)}`);
    else if (typeof high === 'number') words.push(`at most ${high}${unit(high)}`);
  };
  // Zod's `.int()` bounds every integer by the safe range: no constraint a reader needs.
  const unlessSafe = (bound: unknown) =>
    bound === Number.MAX_SAFE_INTEGER || bound === Number.MIN_SAFE_INTEGER ? undefined : bound;
  range(unlessSafe(schema.minimum), unlessSafe(schema.maximum));
  if (typeof schema.exclusiveMinimum === 'number') words.push(`more than ${schema.exclusiveMinimum}`);
  if (typeof schema.exclusiveMaximum === 'number') words.push(`less than ${schema.exclusiveMaximum}`);
  range(schema.minLength, schema.maxLength, 'character');
  range(schema.minItems, schema.maxItems, 'item');
  if (typeof schema.format === 'string') words.push(`format ${schema.format}`);
  if (typeof schema.pattern === 'string') words.push(`pattern /${schema.pattern}/`);
  if ('default' in schema) words.push(`default ${JSON.stringify(schema.default)}`);
  return words;
}

/** One field of an object document, as `inspect` and the report show it. */
export interface FieldRow {
  /** How deep in nested objects (and objects in lists) the field is: 0 at the top. */
  readonly depth: number;
  readonly key: string;
  readonly required: boolean;
  /** `typeText` of the field. */
  readonly type: string;
  /** Its description, then its constraints in words. */
  readonly notes: readonly string[];
}

/** The fields of an object document, nested objects (and lists of objects) after their field. */
export function fieldRows(schema: unknown, depth = 0): FieldRow[] {
  if (!isSchema(schema)) return [];
  const required = new Set(requiredKeys(schema));
  return Object.entries(propertiesOf(schema)).flatMap(([key, field]) => {
    if (!isSchema(field)) return [];
    const constraints = constraintsText(field);
    const row: FieldRow = {
      depth,
      key,
      required: required.has(key),
      type: typeText(field),
      notes: [
        ...(typeof field.description === 'string' ? [field.description] : []),
        ...(constraints.length > 0 ? [`(${constraints.join(', ')})`] : []),
      ],
    };
    const items = field.items;
    const nested =
      field.type === 'object' ? field : isSchema(items) && items.type === 'object' ? items : undefined;
    return [row, ...(nested ? fieldRows(nested, depth + 1) : [])];
  });
}
