import { formatGenerateProblem, type GenerateProblem } from '../generate/problems.js';

export interface Output {
  readonly out: (line: string) => void;
  readonly err: (line: string) => void;
  readonly quiet: boolean;
  readonly paint: Paint;
}

export interface Paint {
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

export function reportProblems(
  output: Output,
  problems: readonly GenerateProblem[],
  warnings: readonly GenerateProblem[],
): void {
  for (const warning of warnings)
    output.err(
      output.paint.yellow(formatGenerateProblem(warning).replace('[toolprep] ', '[toolprep] warning: ')),
    );
  for (const problem of problems) output.err(output.paint.red(formatGenerateProblem(problem)));
  if (problems.length > 0)
    output.err(
      output.paint.red(
        `[toolprep] ${problems.length} problem${problems.length === 1 ? '' : 's'}; nothing was written`,
      ),
    );
}
