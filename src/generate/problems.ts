/** Something in the project that stops generation (or only warns), located as well as toolprep can. */
export interface GenerateProblem {
  readonly file?: string;
  readonly line?: number;
  readonly tool?: string;
  readonly field?: string;
  readonly message: string;
  readonly hint?: string;
}

export function formatGenerateProblem(problem: GenerateProblem): string {
  const place = problem.file ? `${problem.file}${problem.line ? `:${problem.line}` : ''}` : '';
  const subject = [problem.tool ? `tool "${problem.tool}"` : '', problem.field ?? '']
    .filter(Boolean)
    .join(', ');
  const head = [place, subject].filter(Boolean).join(' ');
  return `[toolprep] ${head ? `${head}: ` : ''}${problem.message}${problem.hint ? ` (${problem.hint})` : ''}`;
}
