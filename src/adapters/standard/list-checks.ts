import type { ListCheck, ValueCheck } from '../../manifest/plan.js';
import { isRecord } from '../../shared/run/is-record.js';
import { JsonNode, standardView } from './json-view.js';

/**
 * "Would this array member accept that parsed array", decided by the member's JSON Schema. A
 * Standard Schema library's members cannot be found again at run time, so the check is never
 * deferred: what the document cannot say (a refinement, a format, a multiple, the shape of objects
 * in the list) is not consulted, and a list the document accepts is refused as written as text even
 * where the refinement would have rejected it. The refusal errs on the side of refusing.
 */
export function standardListCheck(member: unknown): Exclude<ListCheck, { defer: unknown }> {
  const node = standardView.resolve(member) as JsonNode;
  const json = isRecord(node.json) ? node.json : {};
  const element = standardView.resolve(new JsonNode(json.items ?? true, node.document)) as JsonNode;
  return {
    ...(typeof json.minItems === 'number' ? { minItems: json.minItems } : {}),
    ...(typeof json.maxItems === 'number' ? { maxItems: json.maxItems } : {}),
    item: valueCheck(element),
  };
}

function valueCheck(node: JsonNode): ValueCheck {
  const json = node.json;
  if (!isRecord(json)) return json === false ? { values: [] } : { any: true };
  const resolve = (value: unknown) =>
    valueCheck(standardView.resolve(new JsonNode(value, node.document)) as JsonNode);
  if ('const' in json) return { values: [json.const as string] };
  if (Array.isArray(json.enum)) return { values: json.enum as string[] };
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = json[key];
    if (Array.isArray(options)) return { anyOf: options.map(resolve) };
  }
  const { type } = json;
  if (Array.isArray(type)) return { anyOf: type.map((one) => resolve({ ...json, type: one })) };
  switch (type) {
    case 'string':
      return {
        type: 'string',
        ...(typeof json.minLength === 'number' ? { minLength: json.minLength } : {}),
        ...(typeof json.maxLength === 'number' ? { maxLength: json.maxLength } : {}),
        ...(typeof json.pattern === 'string' ? { patterns: [{ source: json.pattern, flags: '' }] } : {}),
      };
    case 'number':
    case 'integer': {
      const check: Record<string, unknown> = {
        type: 'number',
        ...(type === 'integer' ? { integer: true } : {}),
      };
      for (const key of ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'])
        if (typeof json[key] === 'number') check[key] = json[key];
      return check as ValueCheck;
    }
    case 'boolean':
    case 'null':
      return { type };
    default:
      return { any: true };
  }
}
