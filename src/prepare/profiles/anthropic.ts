import { ANTHROPIC_STRICT_LIMITS, type StrictBudget } from '../../manifest/profiles.js';
import { definitionGraph } from '../../shared/json-schema/definitions.js';
import { propertiesOf, requiredKeys } from '../../shared/json-schema/records.js';
import { isSchemaObject, type JsonSchema } from '../../shared/json-schema/schema.js';
import type { Profile, ProfileInput } from './profile.js';
import {
  closedObject,
  commonNode,
  keepOnly,
  objectRoot,
  STRUCTURE_KEYWORDS,
  withFormat,
} from './rewrites.js';
import { describeKeywords } from './sentences.js';
import {
  type DocumentPath,
  forEachNode,
  mapTree,
  recordAsObject,
  tupleAsList,
  withoutSafeIntegerBounds,
} from './tree.js';

/**
 * Anthropic's `input_schema`: JSON Schema as it is, but never a union at the root ("input_schema
 * does not support oneOf, allOf, or anyOf at the top level"): a root union of objects is merged,
 * a root intersection of objects too, and anything else left there is an error.
 */
export const anthropic: Profile = (input) => ({
  inputSchema: objectRoot(input.document, input, 'anthropic'),
});

const STRICT = 'anthropic-strict';

/** The string formats strict tool use knows; any other is described. */
const FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'uri',
  'ipv4',
  'ipv6',
  'uuid',
]);

const KEPT = new Set([
  ...STRUCTURE_KEYWORDS,
  'additionalProperties',
  'allOf',
  'const',
  '$ref',
  '$defs',
  'default',
  'format',
  'pattern',
  'minItems',
]);

/**
 * Anthropic strict tool use (`strict: true`): every object closed, optional keys left optional
 * (each nullable would spend the union budget), no recursion, no numeric or length bounds (they
 * move into the description), `minItems` only 0 or 1, a pattern only in the grammar's regex
 * subset. The tool's share of the per-request budgets is recorded.
 */
export const anthropicStrict: Profile = (input) => {
  const { recursive, targetOf } = definitionGraph(input.document);
  const projected = mapTree(objectRoot(input.document, input, STRICT), (node, { path }) => {
    const target = targetOf(node.$ref);
    if (target !== undefined && recursive.has(target) && path[0] !== '$defs')
      input.report({
        code: 'profile-unsupported',
        path,
        message: `a recursive schema cannot be expressed under ${STRICT}`,
        hint: 'use the anthropic profile for this tool, or bound the depth with explicit levels',
      });
    return strictNode(node, path, input);
  });
  const strictBudget = budgetOf(projected);
  // The per-request limits, which one tool alone must not exceed.
  for (const kind of ['optional', 'unions'] as const) {
    const limit = ANTHROPIC_STRICT_LIMITS[kind];
    if (strictBudget[kind] > limit)
      input.report({
        code: 'profile-limit',
        path: [],
        message: `${strictBudget[kind]} ${kind === 'optional' ? 'optional parameters' : 'parameters with union types'}, over ${STRICT}'s limit of ${limit} per request`,
        hint: 'split the tool, or leave this profile out',
      });
  }
  return { inputSchema: projected, strictBudget };
};

function strictNode(source: JsonSchema, path: DocumentPath, input: ProfileInput): JsonSchema {
  let node = recordAsObject(tupleAsList(commonNode(source, path, input, STRICT, { allOf: true })));
  if (node.type === 'object' || isSchemaObject(node.properties))
    node = closedObject(node, path, input, STRICT);
  checkMembers(node, path, input);
  node = withFormat(node, FORMATS);
  if (typeof node.pattern === 'string' && !inRegexSubset(node.pattern))
    node = describeKeywords(node, ['pattern']);
  if (typeof node.minItems === 'number' && node.minItems > 1) node = describeKeywords(node, ['minItems']);
  return keepOnly(withoutSafeIntegerBounds(node), KEPT);
}

/**
 * Enum members strict tool use takes (strings, numbers, booleans, null), no two strings that
 * differ only in case: its outputs may come back in another case, which `caseFold` repairs.
 */
function checkMembers(node: JsonSchema, path: DocumentPath, input: ProfileInput): void {
  const members = Array.isArray(node.enum) ? node.enum : 'const' in node ? [node.const] : [];
  if (members.some((member) => typeof member === 'object' && member !== null))
    input.report({
      code: 'profile-unsupported',
      path,
      message: `an enum member that is an object or a list cannot be expressed under ${STRICT}`,
    });
  const folded = new Map<string, string>();
  for (const member of members.filter((value): value is string => typeof value === 'string')) {
    const other = folded.get(member.toLowerCase());
    if (other !== undefined && other !== member)
      input.report({
        code: 'profile-unsupported',
        path,
        message: `"${other}" and "${member}" differ only in case, which ${STRICT} does not keep (its case repair could not tell them apart)`,
        hint: 'rename one of them',
      });
    folded.set(member.toLowerCase(), member);
  }
}

/**
 * The regular expressions strict tool use's grammar compiles: none with lookaround,
 * backreferences, word boundaries or a repetition count over 1,000.
 */
function inRegexSubset(pattern: string): boolean {
  if (/\(\?<?[=!]|\\[1-9]|\\k<|\\[bB]/.test(pattern)) return false;
  return ![...pattern.matchAll(/\{(\d+)(?:,(\d*))?\}/g)].some(
    ([, low, high]) => Number(low) > 1000 || (high !== undefined && high !== '' && Number(high) > 1000),
  );
}

/** Parameters not required, and parameters with a union type, anywhere in the document. */
function budgetOf(document: JsonSchema): StrictBudget {
  let optional = 0;
  let unions = 0;
  forEachNode(document, (node) => {
    const required = new Set(requiredKeys(node));
    for (const [key, value] of Object.entries(propertiesOf(node))) {
      if (!required.has(key)) optional++;
      if (isSchemaObject(value) && (Array.isArray(value.anyOf) || Array.isArray(value.type))) unions++;
    }
  });
  return { optional, unions };
}
