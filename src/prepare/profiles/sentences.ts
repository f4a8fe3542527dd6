import { plural } from '../../shared/build/plural.js';
import type { JsonSchema } from '../../shared/json-schema/schema.js';
import { getOwn } from '../../shared/run/own-property.js';

const json = (value: unknown) => JSON.stringify(value);

/**
 * A constraint a profile cannot express, as short prose for the description: the model reads it,
 * and the contract's parser still enforces it. Keywords without a sentence of their own are
 * written as `keyword: value.`
 */
const SENTENCES: { readonly [keyword: string]: (value: unknown) => string } = {
  minimum: (value) => `Minimum ${value}.`,
  maximum: (value) => `Maximum ${value}.`,
  exclusiveMinimum: (value) => `Greater than ${value}.`,
  exclusiveMaximum: (value) => `Less than ${value}.`,
  multipleOf: (value) => `A multiple of ${value}.`,
  minLength: (value) => `At least ${plural(value as number, 'character')}.`,
  maxLength: (value) => `At most ${plural(value as number, 'character')}.`,
  pattern: (value) => `Matches the pattern ${value}.`,
  format: (value) => `Format: ${value}.`,
  minItems: (value) => `At least ${plural(value as number, 'item')}.`,
  maxItems: (value) => `At most ${plural(value as number, 'item')}.`,
  uniqueItems: (value) => (value === true ? 'Items are unique.' : ''),
  minProperties: (value) => `At least ${plural(value as number, 'key')}.`,
  maxProperties: (value) => `At most ${plural(value as number, 'key')}.`,
  default: (value) => `Default: ${json(value)}.`,
  const: (value) => `Always ${json(value)}.`,
  enum: (value) => `One of ${(value as unknown[]).map(json).join(', ')}.`,
  examples: (value) => `Examples: ${(value as unknown[]).map(json).join(', ')}.`,
};

export function sentenceFor(keyword: string, value: unknown): string {
  // A keyword may be a user's (`.meta({ constructor: … })`): only the table's own are sentences.
  return getOwn(SENTENCES, keyword)?.(value) ?? `${keyword}: ${json(value)}.`;
}

/** The node with these sentences after its own description. */
export function withSentences(node: JsonSchema, sentences: readonly string[]): JsonSchema {
  const added = sentences.filter(Boolean);
  if (added.length === 0) return node;
  const own = typeof node.description === 'string' && node.description ? `${node.description} ` : '';
  return { ...node, description: `${own}${added.join(' ')}` };
}

/** The node without these keywords, each moved into the description. */
export function describeKeywords(node: JsonSchema, keywords: Iterable<string>): JsonSchema {
  const moved: string[] = [];
  let rest: Record<string, unknown> | undefined;
  for (const keyword of keywords) {
    if (!(keyword in node)) continue;
    rest ??= { ...node };
    moved.push(sentenceFor(keyword, node[keyword]));
    delete rest[keyword];
  }
  return rest ? withSentences(rest, moved) : node;
}
