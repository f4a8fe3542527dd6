import type { SchemaBuilder } from '../types.js';
import { standardDocument } from './document.js';
import { standardView } from './json-view.js';
import { standardListCheck } from './list-checks.js';
import { standard } from './runtime.js';

/**
 * A Standard JSON Schema library at build time: its documents from its own converter
 * (`~standard.jsonSchema`), told where a vendor needs it to mark what it cannot show; its plans
 * compiled from the input document; its refusals decided by the member's document (see
 * standardListCheck, and docs/guide/schema-libraries.md).
 */
export const standardBuilder: SchemaBuilder = {
  view: standardView,
  objectName: 'an object schema',
  objectExample: 'an object schema',
  runtime: standard,
  schemaAt: () => undefined,
  validateFew: standard.validate,
  convert: (schema, { dialect, io }) => standardDocument(schema as never, dialect, io),
  listCheck: standardListCheck,
};
