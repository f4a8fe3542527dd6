/** One thing wrong with a tool, located as precisely as toolprep can. */
export interface ToolProblem {
  readonly tool: string;
  /** Where in the tool: `input.files[].path`, `annotations.readonly`, `name`. */
  readonly field?: string;
  readonly message: string;
  readonly hint?: string;
}

export function formatProblem(problem: ToolProblem): string {
  const where = problem.field ? `tool "${problem.tool}", ${problem.field}` : `tool "${problem.tool}"`;
  return `${where}: ${problem.message}${problem.hint ? ` (${problem.hint})` : ''}`;
}

/** Every problem found in one tool, reported together. */
export class ToolprepPrepareError extends Error {
  override readonly name = 'ToolprepPrepareError';
  constructor(readonly problems: readonly ToolProblem[]) {
    super(`[toolprep] ${problems.map(formatProblem).join('\n[toolprep] ')}`);
  }
}
