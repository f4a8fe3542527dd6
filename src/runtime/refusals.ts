import { kindOfValue, unionMembers } from '../shared/json-schema/kinds.js';
import type { JsonSchema } from '../shared/json-schema/schema.js';
import { typeText } from '../shared/json-schema/schema-text.js';
import { isRecord } from '../shared/run/is-record.js';
import { getOwn } from '../shared/run/own-property.js';
import { formatPath } from './json-text.js';
import { branchesOf, schemasAt, targetOf } from './schema-at-path.js';
import { guessStrays, namesStray, pathKey, type StrayKey, undeclaredKeys } from './stray-keys.js';

/**
 * Validation refusals written for the model: one short message per field that names it and says
 * what to send, read from the tool's prepared document and the issues its parser returned, so
 * that every schema library's refusal reads alike. Only a call that fails is described; what a
 * parser accepts (or strips) is its own affair.
 */

type Path = readonly (string | number)[];

export interface FieldRefusal {
  readonly path: Path;
  /** Names the field: `"path" is required: a string`. */
  readonly message: string;
}

export interface RefusedCall {
  readonly tool: string;
  /** The tool's MCP document (JSON Schema 2020-12), flattened or not. */
  readonly document: JsonSchema;
  /** The arguments its parsers were given, after the plan. */
  readonly args: Record<string, unknown>;
  /** Top-level keys that are no field of the document and are taken anyway (extension keys). */
  readonly taken: readonly string[];
}

/** At most this many enum members, or field names, are listed; the rest are counted. */
const LISTED = 20;
/** A value sent is quoted up to this many characters of JSON; longer text is cut, longer structures named. */
const QUOTED = 40;
/** What a parser says of a union none of whose members took the value: what the field takes says more. */
const SAYS_NOTHING = /^invalid input\.?$/i;

/** The refusals for a failed call, one per field, in the order the parser reported them. */
export function writeRefusals(issues: readonly FieldRefusal[], call: RefusedCall): FieldRefusal[] {
  const strays = undeclaredKeys(call.document, call.args, call.taken);
  const strayPaths = new Set(strays.map((stray) => pathKey(stray.path)));
  const fields = new Map<string, { path: Path; texts: string[]; missing: boolean }>();
  for (const { path, message } of issues) {
    // A key the contract refuses as undeclared is described by its own refusal below.
    if (strayPaths.has(pathKey(path)) || namesStray(path, message, strays)) continue;
    const { text, missing } = fieldText(path, message, call.document, call.args);
    const field = fields.get(pathKey(path));
    if (!field) fields.set(pathKey(path), { path, texts: [text], missing });
    else if (!field.texts.includes(text)) field.texts.push(text);
  }
  const missing = [...fields.values()].filter((field) => field.missing).map((field) => field.path);
  const guesses = guessStrays(strays, missing);
  // A stray key that stands for a missing one is told in the missing key's place.
  const strayFor = new Map<string, StrayKey>();
  for (const [stray, guess] of guesses) if (fields.has(pathKey(guess))) strayFor.set(pathKey(guess), stray);
  const refusals: FieldRefusal[] = [...fields.values()].map(({ path, texts }) => {
    const stray = strayFor.get(pathKey(path));
    return { path, message: stray ? didYouMean(path, stray.path, call.tool) : texts.join(' and ') };
  });
  for (const stray of strays) {
    const guess = guesses.get(stray);
    if (guess && strayFor.get(pathKey(guess)) === stray) continue;
    refusals.push({
      path: stray.path,
      message: guess ? didYouMean(guess, stray.path, call.tool) : notAField(stray, call.tool),
    });
  }
  return refusals;
}

const quotedPath = (path: Path): string => (path.length === 0 ? formatPath(path) : `"${path.join('.')}"`);

/** One issue's text: what the field must be where the document says, else the parser's own words. */
function fieldText(
  path: Path,
  message: string,
  document: JsonSchema,
  args: Record<string, unknown>,
): { text: string; missing: boolean } {
  const field = quotedPath(path);
  const schemas = path.length === 0 ? [] : schemasAt(document, path);
  const sent = valueAt(args, path);
  if (schemas.length > 0 && sent.missing)
    return { text: `${field} is required: ${expectedText(document, schemas)}`, missing: true };
  if (schemas.length > 0 && !sent.missing) {
    const { kinds, members } = expectationOf(document, schemas);
    const refused =
      (members !== undefined && !members.some((member) => sameValue(member, sent.value))) ||
      (kinds !== undefined && !kindMatches(kinds, sent.value)) ||
      SAYS_NOTHING.test(message);
    if (refused)
      return {
        text: `${field} must be ${expectedText(document, schemas)} (got ${shown(sent.value)})`,
        missing: false,
      };
  }
  // ArkType names the field itself: `path must be at least length 3 (was 1)`.
  const ownName = `${formatPath(path)} `;
  const text =
    path.length > 0 && message.startsWith(ownName)
      ? `${field} ${message.slice(ownName.length)}`
      : `${field}: ${message}`;
  return { text, missing: false };
}

function valueAt(args: unknown, path: Path): { missing: boolean; value?: unknown } {
  let value = args;
  for (const segment of path) {
    if (Array.isArray(value) && typeof segment === 'number') value = value[segment];
    else if (isRecord(value)) value = getOwn(value, String(segment));
    else return { missing: true };
  }
  return value === undefined ? { missing: true } : { missing: false, value };
}

interface Expectation {
  /** The JSON kinds the field takes; undefined: any. */
  readonly kinds?: ReadonlySet<string>;
  /** Every value it takes, where it takes only listed ones (an enum, a constant). */
  readonly members?: readonly unknown[];
}

/**
 * What the schemas take together, each an alternative. `within` holds the schemas being read
 * further up: a recursive reference met again takes anything, rather than being read forever.
 */
function expectationOf(
  document: JsonSchema,
  schemas: readonly unknown[],
  within: Set<unknown> = new Set(),
): Expectation {
  const each = schemas.map((schema) => expectationOfOne(document, schema, within));
  if (each.some((one) => one.kinds === undefined)) return {};
  const members = each.every((one) => one.members) ? each.flatMap((one) => one.members ?? []) : undefined;
  return { kinds: new Set(each.flatMap((one) => [...(one.kinds ?? [])])), members };
}

/** One schema's expectation: its own keywords, its reference and its unions all apply. */
function expectationOfOne(document: JsonSchema, schema: unknown, within: Set<unknown>): Expectation {
  if (schema === false) return { kinds: new Set(), members: [] };
  if (!isRecord(schema) || within.has(schema)) return {};
  if (Object.hasOwn(schema, 'const'))
    return { kinds: new Set([kindOfValue(schema.const)]), members: [schema.const] };
  if (Array.isArray(schema.enum))
    return { kinds: new Set(schema.enum.map(kindOfValue)), members: schema.enum };
  within.add(schema);
  const parts: Expectation[] = [];
  const { type } = schema;
  if (typeof type === 'string' || Array.isArray(type)) parts.push({ kinds: new Set([type].flat()) });
  const target = targetOf(document, schema.$ref);
  if (target !== undefined) parts.push(expectationOfOne(document, target, within));
  const union = unionMembers(schema);
  if (union) parts.push(expectationOf(document, union, within));
  const allOf = getOwn(schema, 'allOf');
  if (Array.isArray(allOf)) parts.push(...allOf.map((member) => expectationOfOne(document, member, within)));
  within.delete(schema);
  // Keywords side by side each apply: what all of them allow.
  let kinds: Set<string> | undefined;
  let members: readonly unknown[] | undefined;
  for (const part of parts) {
    if (part.kinds)
      kinds = kinds ? new Set([...kinds].filter((kind) => part.kinds?.has(kind))) : new Set(part.kinds);
    members ??= part.members;
  }
  return { kinds, members: members?.filter((member) => kinds === undefined || kindMatches(kinds, member)) };
}

/** Whether a value is of a kind the field takes; whole or not, a number is the parser's to judge. */
function kindMatches(kinds: ReadonlySet<string>, value: unknown): boolean {
  const kind = kindOfValue(value);
  if (kind === 'integer' || kind === 'number') return kinds.has('number') || kinds.has('integer');
  return kinds.has(kind);
}

function sameValue(member: unknown, value: unknown): boolean {
  return typeof member === 'object' && member !== null
    ? JSON.stringify(member) === JSON.stringify(value)
    : member === value;
}

const ARTICLES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'an integer',
  boolean: 'a boolean',
  object: 'an object',
  array: 'a list',
  null: 'null',
  any: 'any value',
};

/** What a field takes, in words: `a string`, `one of "fast", "exact"`, `an integer or null`. */
function expectedText(document: JsonSchema, schemas: readonly JsonSchema[]): string {
  const { members } = expectationOf(document, schemas);
  if (members !== undefined && members.length > 0) {
    const values = [...new Set(members.map((member) => JSON.stringify(member)))];
    return values.length === 1 ? (values[0] as string) : `one of ${listed(values)}`;
  }
  const texts = new Set<string>();
  for (const schema of schemas)
    for (const branch of branchesOf(document, schema)) {
      // A union, an intersection or a reference is read through its branches.
      if (['anyOf', 'oneOf', 'allOf', '$ref'].some((key) => Object.hasOwn(branch, key))) continue;
      const types = Array.isArray(branch.type) ? branch.type : [branch.type];
      // A list of a definition reads as a list of what the definition is, where it names a type.
      const items = isRecord(branch.items) ? targetOf(document, branch.items.$ref) : undefined;
      const read = isRecord(items) && items.type !== undefined ? { ...branch, items } : branch;
      for (const type of types) {
        const text = typeText(type === undefined ? read : { ...read, type });
        texts.add(getOwn(ARTICLES, text) ?? text);
      }
    }
  // A branch that names no type (an intersection's bounds) adds nothing beside one that does.
  if (texts.size > 1) texts.delete('any value');
  return texts.size === 0 ? 'any value' : [...texts].join(' or ');
}

function listed(names: readonly string[]): string {
  const more = names.length - LISTED;
  return more > 0 ? `${names.slice(0, LISTED).join(', ')} and ${more} more` : names.join(', ');
}

/** A value sent, as a refusal quotes it: short text and scalars as JSON, structures by kind. */
function shown(value: unknown): string {
  if (typeof value === 'string' && value.length > QUOTED) return `${JSON.stringify(value.slice(0, QUOTED))}…`;
  if (typeof value === 'bigint') return `${value}`;
  const json = JSON.stringify(value);
  if (json !== undefined && json.length <= QUOTED) return json;
  if (Array.isArray(value)) return `a list of ${value.length} items`;
  return typeof value === 'object' && value !== null ? 'an object' : String(value);
}

function didYouMean(declared: Path, stray: Path, tool: string): string {
  return `did you mean ${quotedPath(declared)}? ${quotedPath(stray)} is not a field of ${tool}`;
}

function notAField({ path, declared }: StrayKey, tool: string): string {
  const names = listed(declared.map((name) => JSON.stringify(name)));
  const owner = path.length === 1 ? 'fields' : `fields of ${quotedPath(path.slice(0, -1))}`;
  return `${quotedPath(path)} is not a field of ${tool} (${declared.length === 0 ? 'it takes none' : `${owner}: ${names}`})`;
}
