/** JSON Schema keywords (draft-07 and 2020-12 together) whose value is one subschema. */
export const SINGLE_SUBSCHEMA_KEYS = [
  'items',
  'additionalItems',
  'additionalProperties',
  'propertyNames',
  'contains',
  'not',
  'if',
  'then',
  'else',
];
/** Keywords whose value is a list of subschemas (`items` as draft-07's tuple form). */
export const SUBSCHEMA_LIST_KEYS = ['prefixItems', 'items', 'anyOf', 'oneOf', 'allOf'];
/** Keywords whose value maps names to subschemas. */
export const SUBSCHEMA_MAP_KEYS = ['properties', 'patternProperties', '$defs', 'definitions'];
