import type { ProfileDocument } from '../../manifest/profiles.js';
import type { ProblemCode } from '../../shared/build/problems.js';
import type { JsonSchema } from '../../shared/json-schema/schema.js';
import type { DocumentPath } from './tree.js';

/** A problem a profile finds, at a place in the document; the caller names the tool and field. */
interface ProfileFinding {
  readonly severity?: 'error' | 'warning';
  readonly code: ProblemCode;
  readonly path: DocumentPath;
  readonly message: string;
  readonly hint?: string;
}

export interface ProfileInput {
  readonly tool: string;
  /** The MCP document (2020-12), merged and flattened as the config says, without `$schema`. */
  readonly document: JsonSchema;
  report(finding: ProfileFinding): void;
}

/** A profile: a pure JSON → JSON projection of the presentation document, and what it cannot do. */
export type Profile = (input: ProfileInput) => ProfileDocument;

/** Keywords no provider takes and no description can stand for: they leave no valid value, or no meaning. */
export const INEXPRESSIBLE: ReadonlySet<string> = new Set([
  'not',
  'if',
  'then',
  'else',
  'dependentRequired',
  'dependentSchemas',
  'contains',
]);
