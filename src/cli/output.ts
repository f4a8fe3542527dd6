import type { ExplanationReport, OutcomeReport } from '../generate/outcome.js';
import { describeError, ToolprepError } from '../shared/build/problems.js';

export interface Output {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly quiet: boolean;
  readonly paint: Paint;
}

interface Paint {
  readonly red: (text: string) => string;
  readonly yellow: (text: string) => string;
  readonly green: (text: string) => string;
  readonly dim: (text: string) => string;
  readonly bold: (text: string) => string;
}

/** Colour only on a terminal, and never when NO_COLOR is set. */
export function createOutput(quiet: boolean, stdout = process.stdout, stderr = process.stderr): Output {
  const coloured = Boolean(stdout.isTTY) && !process.env.NO_COLOR;
  // A reader that stops early (`toolprep inspect | head`) is not an error.
  for (const stream of [stdout, stderr]) {
    stream.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(process.exitCode ?? 0);
    });
  }
  const code = (open: number, close: number) => (text: string) =>
    coloured ? `\u001b[${open}m${text}\u001b[${close}m` : text;
  return {
    out: (line) => stdout.write(`${line}\n`),
    err: (line) => stderr.write(`${line}\n`),
    quiet,
    paint: {
      red: code(31, 39),
      yellow: code(33, 39),
      green: code(32, 39),
      dim: code(2, 22),
      bold: code(1, 22),
    },
  };
}

/** Prints a run's report: the summary on stdout (unless quiet), the rest on stderr, coloured. */
export function printReport(output: Output, report: OutcomeReport): void {
  for (const warning of report.warnings) output.err(output.paint.yellow(warning));
  for (const problem of report.problems) output.err(output.paint.red(problem));
  if (report.stale) {
    const [headline, ...rest] = report.stale.split('\n');
    output.out([output.paint.red(headline ?? ''), ...rest].join('\n'));
  }
  if (report.summary && !output.quiet) output.out(report.summary);
}

/** Prints an explanation: each problem on stderr, red; the findings and the summary on stdout. */
export function printExplanation(output: Output, report: ExplanationReport): void {
  for (const problem of report.problems) output.err(output.paint.red(problem));
  for (const finding of report.findings) output.out(finding);
  output.out(report.summary);
}

/** Reports an error thrown out of a command: the user's mistakes as problems, anything else as a bug. */
export function printError(output: Output, error: unknown): void {
  const text = describeError(error);
  output.err(error instanceof ToolprepError ? output.paint.red(text) : text);
}
