/**
 * Every problem toolprep finds in a project, as data from where it is found to where it is printed.
 * The codes are stable (docs/reference/problems.md lists them); messages may be reworded.
 */
export type ProblemCode =
  // discover
  | 'not-exported'
  | 'contract-out-of-sight'
  // load
  | 'build-failed'
  | 'load-threw'
  | 'not-a-contract-when-loaded'
  | 'unnamed-contract'
  | 'handshake-not-captured'
  // prepare: the contract
  | 'not-a-contract'
  | 'no-name'
  | 'invalid-name'
  | 'empty-description'
  | 'unknown-key'
  | 'invalid-title'
  | 'invalid-icon'
  | 'invalid-group'
  | 'invalid-loading'
  | 'invalid-search-hint'
  | 'invalid-intents'
  | 'unknown-annotation'
  | 'annotation-type'
  | 'not-a-schema'
  | 'params-not-object'
  | 'meta-not-object'
  // prepare: its schemas
  | 'unrepresentable'
  | 'input-not-object'
  | 'key-clash'
  | 'output-not-shown'
  | 'mcp-header'
  | 'task-policy'
  | 'coercion-hazard'
  // prepare: a provider profile
  | 'profile-unsupported'
  | 'profile-limit'
  | 'profile-name'
  | 'profile-narrowed'
  | 'profile-choice'
  | 'profile-fallback'
  | 'namespace-size'
  // check --explain: a bug in toolprep
  | 'superset-violated'
  // the project
  | 'duplicate-name'
  | 'no-tools'
  | 'over-budget'
  | 'tool-without-group'
  | 'group-without-tools'
  | 'group-without-description'
  | 'name-matches-nothing'
  | 'include-matches-nothing'
  | 'zod-unsupported'
  | 'search-tool-name-taken'
  // views (MCP Apps)
  | 'invalid-view'
  | 'view-build-failed'
  | 'view-link'
  | 'view-csp-missing'
  | 'view-csp-unresolved'
  | 'view-csp-stripped'
  | 'view-over-budget'
  // toolprep check: findability of the intents
  | 'intent-not-found'
  | 'similar-search-documents'
  // the configuration
  | 'config-unknown-option'
  | 'config-invalid-option'
  | 'config-not-loaded'
  | 'config-no-default-export';

type Severity = 'error' | 'warning';

export interface Problem {
  readonly severity: Severity;
  readonly code: ProblemCode;
  /** What is wrong, without the place: `has an empty description`. */
  readonly message: string;
  /** The tool's name as far as it is known, or its export name. */
  readonly tool?: string;
  /** Where in the tool: `input.files[].path`, `annotations.readonly`, `name`. */
  readonly field?: string;
  /** The provider profile whose document has the problem: `openai-strict`. */
  readonly profile?: string;
  /** Relative to the project root, with `/`. */
  readonly file?: string;
  readonly line?: number;
  /** What to do about it. */
  readonly hint?: string;
}

/** `[toolprep] warning: src/a.ts:4 tool "read", description: has an empty description (hint)`. */
export function formatProblem(problem: Problem): string {
  const place = problem.file ? `${problem.file}${problem.line ? `:${problem.line}` : ''}` : '';
  const subject = [
    problem.tool ? `tool "${problem.tool}"` : '',
    problem.field ?? '',
    problem.profile ? `profile ${problem.profile}` : '',
  ]
    .filter(Boolean)
    .join(', ');
  const head = [place, subject].filter(Boolean).join(' ');
  const severity = problem.severity === 'warning' ? 'warning: ' : '';
  return `[toolprep] ${severity}${head ? `${head}: ` : ''}${problem.message}${problem.hint ? ` (${problem.hint})` : ''}`;
}

/**
 * A mistake in the user's project or options, carrying every problem found. Anything else thrown
 * inside toolprep is a bug in toolprep, and is reported as one, with its stack.
 */
export class ToolprepError extends Error {
  override readonly name = 'ToolprepError';
  constructor(readonly problems: readonly Problem[]) {
    super(problems.map(formatProblem).join('\n'));
  }
}

/** The same problem, placed in a file (and at a line) when it carries no place of its own. */
export function placed(problem: Problem, file: string | undefined, line?: number): Problem {
  if (problem.file !== undefined || file === undefined) return problem;
  return line === undefined ? { ...problem, file } : { ...problem, file, line };
}

/** An error thrown out of toolprep, in words: the user's mistakes as their problems, anything else as a bug. */
export function describeError(error: unknown): string {
  if (error instanceof ToolprepError) return error.message;
  const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
  return `[toolprep] this is a bug in toolprep; please report it with what follows:\n${detail}`;
}
