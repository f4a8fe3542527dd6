import type { McpHeader } from '../manifest/prepared-tool.js';
import type { Problem } from '../shared/build/problems.js';
import { propertiesOf, propertyOf } from '../shared/json-schema/records.js';
import { isSchemaObject, type JsonSchema } from '../shared/json-schema/schema.js';
import { forEachSubschema } from '../shared/json-schema/walk.js';
import { withOwn } from '../shared/run/own-property.js';

/**
 * MCP 2026-07-28 lets a tool mirror an argument into an HTTP header (`x-mcp-header` on a property
 * of its `inputSchema`: `Mcp-Param-Region`), so that a load balancer can route on it. A client drops
 * a tool whose annotation breaks the rules, so they are checked here, at build time, and the list
 * a server checks each request's headers against is computed once, from the document itself.
 */

const KEYWORD = 'x-mcp-header';
/** RFC 9110 `token`: what a header name may be made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVES = new Set(['string', 'integer', 'boolean']);
/**
 * The document with the contract's `headers` (`{ 'location.zone': 'Zone' }`) written into it as
 * `x-mcp-header`, each at the property its dotted path names through `properties`.
 */
export function annotateHeaders(
  document: JsonSchema,
  headers: Readonly<Record<string, string>> | undefined,
  tool: string,
  problems: Problem[],
): JsonSchema {
  if (headers === undefined || typeof headers !== 'object') return document;
  let annotated = document;
  for (const [path, name] of Object.entries(headers)) {
    const steps = path.split('.');
    const written = withHeader(annotated, steps, name);
    if (written) annotated = written;
    else
      problems.push({
        severity: 'error',
        code: 'mcp-header',
        tool,
        field: `headers.${path}`,
        message: `names no property of the input: a header mirrors a field reached through properties alone`,
        hint: 'name a top-level field, or a field of a nested object (`location.zone`), not one inside a list or a union',
      });
  }
  return annotated;
}

function withHeader(schema: JsonSchema, steps: readonly string[], name: string): JsonSchema | undefined {
  const [step, ...rest] = steps;
  if (step === undefined) return { ...schema, [KEYWORD]: name };
  const child = propertyOf(schema, step);
  if (!isSchemaObject(child)) return undefined;
  const written = withHeader(child, rest, name);
  if (!written) return undefined;
  return { ...schema, properties: withOwn(propertiesOf(schema), step, written) };
}

/**
 * Every `x-mcp-header` of the document, checked by the specification's rules: on a property
 * reached from the root through `properties` alone, of type string, integer or boolean, a valid
 * header name, unique without regard to case. A break is a problem naming the field.
 */
export function collectHeaders(document: JsonSchema, tool: string, problems: Problem[]): McpHeader[] {
  const found: McpHeader[] = [];
  const seen = new Map<string, string>();
  const report = (field: string[], message: string, hint?: string) =>
    problems.push({
      severity: 'error',
      code: 'mcp-header',
      tool,
      field: `input.${field.join('.') || '(root)'}`,
      message,
      ...(hint ? { hint } : {}),
    });
  const visit = (schema: JsonSchema, path: string[], reachable: boolean) => {
    if (Object.hasOwn(schema, KEYWORD)) {
      const name = schema[KEYWORD];
      if (!reachable)
        report(
          path,
          `has ${KEYWORD} where it is not statically reachable (inside a list, a union or a definition)`,
        );
      else if (typeof name !== 'string' || !TOKEN.test(name))
        report(
          path,
          `${KEYWORD} ${JSON.stringify(name)} is not a valid header name`,
          'use letters, digits and - only',
        );
      else if (typeof schema.type !== 'string' || !PRIMITIVES.has(schema.type))
        report(
          path,
          `${KEYWORD} is on ${JSON.stringify(schema.type ?? 'an untyped value')}, not a string, an integer or a boolean`,
        );
      else if (seen.has(name.toLowerCase()))
        report(
          path,
          `${KEYWORD} "${name}" is also the header of ${seen.get(name.toLowerCase())}`,
          'give each header its own name',
        );
      else {
        seen.set(name.toLowerCase(), path.join('.'));
        found.push({ path, header: name, type: schema.type as McpHeader['type'] });
      }
    }
    // Under any keyword but `properties` a field is not statically reachable from the root.
    forEachSubschema(schema, (child, [keyword, key]) =>
      keyword === 'properties' ? visit(child, [...path, String(key)], reachable) : visit(child, path, false),
    );
  };
  visit(document, [], true);
  return found;
}
