import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PROFILE_NAMES } from '../../src/manifest/profiles.js';
import { kindOfValue } from '../../src/shared/json-schema/kinds.js';
import type { JsonSchema } from '../../src/shared/json-schema/schema.js';
import { type Answered, answerStrictTools, type InverseListed } from '../support/agents-answers.js';
import type { Difference } from '../support/json-differences.js';
import { benchProjects, fixtureProjects, type JudgedProject } from '../support/judged-projects.js';
import {
  type DocumentDifference,
  type Judged,
  judgeDocuments,
  type ListedDifference,
} from '../support/provider-judges.js';

/**
 * The providers' own code as the judge of toolprep's profile documents. Every document the
 * fixtures with profiles and the benches' generated tools produce goes through each function of
 * the provider's SDKs that decides what is sent for it; what comes out must be the document itself
 * (compared canonically: key order aside) or differ only as LISTED below, each row saying why that
 * is harmless or what it means. Then the model's answers for the `openai-strict` documents (`null`
 * for optional keys) go through @openai/agents' own handling of strict tools' answers and through
 * toolprep's plan with the profile's inverse steps: the handler must get the same arguments, or the
 * difference is listed in INVERSE_LISTED. No row names OpenAI's functions, the Anthropic SDK's
 * `betaTool` or @google/genai's `parametersJsonSchema`: they send every document as it is.
 */

const removed =
  (...keywords: string[]) =>
  (difference: DocumentDifference): boolean =>
    difference.kind === 'removed' && keywords.includes(difference.keyword ?? '');

const parentOf = (difference: DocumentDifference) => (difference.parentBefore ?? {}) as JsonSchema;
/** Whether a `type` (a name or a list) takes the value. */
const typesTake = (types: unknown, value: unknown) => {
  const kind = kindOfValue(value);
  return [types].flat().some((type) => type === kind || (type === 'number' && kind === 'integer'));
};

const AI_SDK = '@ai-sdk/google prepareTools';

const LISTED: readonly ListedDifference[] = [
  // The SDK keeps an enum (or const) and drops the `type` beside it: every member has that type,
  // so the grammar admits the same values.
  {
    judge: '@anthropic-ai/sdk transformJSONSchema',
    profiles: ['anthropic-strict'],
    what: '`type` beside an enum left out',
    covers: (difference) => {
      const parent = parentOf(difference);
      const members = Array.isArray(parent.enum)
        ? parent.enum
        : 'const' in parent
          ? [parent.const]
          : undefined;
      return removed('type')(difference) && !!members?.every((member) => typesTake(parent.type, member));
    },
  },
  // Anthropic's docs list `default` among the keywords strict tool use supports, so the profile
  // keeps it; the SDK's transform keeps only the keywords it knows and writes the rest into the
  // description (`{default: 10}`). Either way the model reads the same default, which constrains
  // nothing: the contract's parser applies it when the key is left out.
  {
    judge: '@anthropic-ai/sdk transformJSONSchema',
    profiles: ['anthropic-strict'],
    what: '`default` written into the description',
    covers: (difference) => {
      const parent = parentOf(difference);
      const written = `{default: ${JSON.stringify(parent.default)}}`;
      if (difference.keyword === 'default') return difference.kind === 'removed';
      if (difference.keyword !== 'description' || !('default' in parent)) return false;
      return difference.kind === 'added'
        ? difference.after === written
        : difference.after === `${difference.before}\n\n${written}`;
    },
  },
  // The SDK writes `parameters`' types as its OpenAPI `Type` enum (`STRING`), the form the
  // `parameters` field documents; the API reads them as the same types.
  {
    judge: '@google/genai parameters',
    profiles: ['gemini-openapi'],
    what: 'types in capitals',
    covers: (difference) =>
      difference.keyword === 'type' &&
      typeof difference.before === 'string' &&
      difference.after === difference.before.toUpperCase(),
  },
  // The AI SDK turns the JSON Schema it is given into OpenAPI's `parameters`: a type list with
  // `null` is OpenAPI's `nullable: true` beside the other type, the same values.
  {
    judge: AI_SDK,
    profiles: ['gemini'],
    what: '`[T, "null"]` as `T` with `nullable: true`',
    covers: (difference) => {
      const { type } = parentOf(difference);
      if (!Array.isArray(type) || !type.includes('null') || type.length !== 2) return false;
      return difference.keyword === 'nullable'
        ? difference.after === true
        : difference.keyword === 'type' && difference.after === type.find((other) => other !== 'null');
    },
  },
  // Likewise a type list without `null` is an `anyOf` of one type each, the same values.
  {
    judge: AI_SDK,
    profiles: ['gemini'],
    what: 'a type list as an anyOf of its types',
    covers: (difference) => {
      const { type } = parentOf(difference);
      if (!Array.isArray(type) || type.includes('null')) return false;
      const asAnyOf = JSON.stringify(type.map((each) => ({ type: each })));
      return (
        (difference.keyword === 'type' && difference.kind === 'removed') ||
        (difference.keyword === 'anyOf' && JSON.stringify(difference.after) === asAnyOf)
      );
    },
  },
  // The AI SDK's converter copies only the keywords it knows (description, required, format, type,
  // enum, properties, items, anyOf, allOf, oneOf, minLength) and drops the rest without a word,
  // though Gemini's `parameters` takes bounds: the model is not shown them, not even described, and
  // meets them as the contract's parser's refusal (which names the bound) when it oversteps one.
  {
    judge: AI_SDK,
    profiles: ['gemini', 'gemini-openapi'],
    what: 'bounds and defaults dropped',
    covers: removed('minimum', 'maximum', 'minItems', 'maxItems', 'maxLength', 'default'),
  },
  // OpenAPI's `parameters` has no `additionalProperties`: a closed object (`false`, a strict
  // object) is shown open, and a record's values lose their schema (`{type: "object"}` with free
  // keys). The contract's parser still refuses a key it does not take and checks each value.
  {
    judge: AI_SDK,
    profiles: ['gemini'],
    what: '`additionalProperties` dropped',
    covers: removed('additionalProperties'),
  },
  // A tuple's places are JSON Schema's `prefixItems`, which the converter drops: the model sees a
  // list with no item schema and no length (gemini-openapi shows a tuple as `items` with its length
  // and order described, which the AI SDK keeps). The parser still checks each place.
  {
    judge: AI_SDK,
    profiles: ['gemini'],
    what: '`prefixItems` dropped',
    covers: removed('prefixItems'),
  },
  // Handed the gemini-openapi document, the AI SDK reads it as JSON Schema, where `nullable` is no
  // keyword, and drops it: a field that takes `null` is shown as one that does not. A model then
  // sends a value of the type (which the contract takes) or leaves an optional key out; it cannot
  // send `null` for a required nullable key. (A field that takes only `null`, which gemini-openapi
  // shows as a nullable string, would be shown as a plain string the contract refuses: none here.)
  // With the AI SDK, choose the gemini profile, which the AI SDK converts itself.
  {
    judge: AI_SDK,
    profiles: ['gemini-openapi'],
    what: '`nullable` dropped',
    covers: removed('nullable'),
  },
  // `propertyOrdering` is no JSON Schema keyword either: Gemini then orders the keys as it likes,
  // which changes only the order the model writes them in.
  {
    judge: AI_SDK,
    profiles: ['gemini-openapi'],
    what: '`propertyOrdering` dropped',
    covers: removed('propertyOrdering'),
  },
];

const keptNull = (difference: Difference) => difference.kind === 'added' && difference.after === null;

const INVERSE_LISTED: readonly InverseListed[] = [
  // agents removes a `null` only where the Zod field is `.optional()`. A `.default(x)` field is
  // optional to a caller too, but agents reads through the default to the schema inside, keeps the
  // `null`, and its own parse refuses it ("expected boolean, received null"): its own strict schema
  // shows such a field required and not nullable, so it never expects one. The openai-strict
  // document shows it nullable with its default described, so that a model can leave it out;
  // toolprep removes the `null` and the default applies. (Both refuse an answer with another fault.)
  {
    handler: 'agents Zod tool',
    what: '`null` for a field with a default',
    relations: ['agents refuses', 'both refuse'],
    covers: (difference, field) =>
      keptNull(difference) && field.node !== undefined && 'default' in field.node,
  },
  // Likewise a `null` for a key of a partial record (`z.partialRecord(z.enum(…), …)`): a record's
  // values are no `.optional()`, so agents keeps it and its parse refuses it. (Agents' own schema
  // shows such a record as `additionalProperties: {…}`, which strict mode refuses; openai-strict
  // shows its keys as a closed object of nullable values.) toolprep removes it: the key is absent.
  {
    handler: 'agents Zod tool',
    what: "`null` for a partial record's key",
    relations: ['agents refuses', 'both refuse'],
    covers: (difference, field) => keptNull(difference) && field.inRecord,
  },
  // The MCP document shows a flattened union's keys of every variant, each one some variants lack
  // as optional ("Required if type = file"), so agents removes every `null` sent for one. toolprep
  // removes only the nulls the variant the tag picks refuses; a `null` for a key that variant does
  // not declare it leaves to the parser, which strips the key (`z.object`), and one for a key that
  // variant requires is refused either way.
  {
    handler: 'agents MCP tool',
    what: '`null` for a key of another union variant',
    relations: ['the same arguments', 'both refuse'],
    covers: (difference, field) =>
      difference.kind === 'removed' &&
      difference.before === null &&
      /\b(Required|Available) if \S+ = /.test(String(field.node?.description)),
  },
];

/**
 * The keywords for which agents' `prepareOpenAIStrictToolSchema` refuses an MCP document: such an
 * MCP tool reaches an agent non-strict (agents falls back, with a warning), which the openai-strict
 * document avoids.
 */
const MCP_REFUSED: readonly string[] = [
  // A tuple's places in JSON Schema 2020-12; openai-strict shows a tuple as a list.
  'prefixItems',
  // The keys of a record; openai-strict shows an enum-key record as a closed object of its keys.
  'propertyNames',
];

let projects: JudgedProject[] = [];
let judged: Judged;
let answered: Answered;
beforeAll(async () => {
  // One set at a time, so that afterAll removes what was built when a later one fails.
  projects = await fixtureProjects();
  projects = [...projects, ...(await benchProjects())];
  judged = await judgeDocuments(projects, LISTED);
  answered = await answerStrictTools(projects, INVERSE_LISTED, MCP_REFUSED);
}, 600_000);
afterAll(() => {
  for (const project of projects) project.remove();
});

describe("each profile document is what the provider's own code sends, or differs as listed", () => {
  test.each(PROFILE_NAMES)('%s', (profile) => {
    expect(judged.documents.get(profile)).toBeGreaterThan(200);
    expect(judged.unlisted.get(profile)).toEqual([]);
  });

  test('each listed difference still occurs', () => {
    expect(LISTED.filter((row) => !judged.used.has(row)).map((row) => `${row.judge}: ${row.what}`)).toEqual(
      [],
    );
  });
});

describe("openai-strict answers: the inverse steps against @openai/agents' own handling", () => {
  test('the handler gets the same arguments, or the difference is listed', () => {
    expect(answered.answers).toBeGreaterThan(1000);
    expect(answered.unlisted).toEqual([]);
  });

  test('agents refuses an MCP document only for a listed keyword', () => {
    expect(answered.refusedDocuments.filter((refusal) => !MCP_REFUSED.includes(refusal))).toEqual([]);
    expect(new Set(answered.refusedDocuments)).toEqual(new Set(MCP_REFUSED));
  });

  test('each listed inverse difference still occurs', () => {
    expect(
      INVERSE_LISTED.filter((row) => !answered.used.has(row)).map((row) => `${row.handler}: ${row.what}`),
    ).toEqual([]);
  });
});
