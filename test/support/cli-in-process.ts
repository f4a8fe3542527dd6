import { Writable } from 'node:stream';
import { runGenerate, runInspect } from '../../src/cli/commands.js';
import { createOutput, printError } from '../../src/cli/output.js';

export interface CliResult {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** A stream that keeps what is written to it, as text; not a terminal, so never coloured. */
function collector(): { readonly stream: Writable; text(): string } {
  let text = '';
  const stream = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  return { stream, text: () => text };
}

/**
 * `toolprep generate` in a project, run as the command runs it (src/cli/main.ts: the command, and a
 * thrown error printed) but in this process: the cases that test what a run reports need not
 * start Node and load toolprep each. That a process exits with it is tested by spawning the CLI.
 */
export async function generateInProcess(root: string): Promise<CliResult> {
  return runInProcess((context) => runGenerate({ ...context, generateOptions: { root, cache: true } }));
}

/** `toolprep inspect [name]` in a project, in this process, as `generateInProcess` runs generate. */
export async function inspectInProcess(root: string, name?: string): Promise<CliResult> {
  return runInProcess((context) =>
    runInspect({ ...context, generateOptions: { root, cache: false } }, name, { json: false, sort: 'name' }),
  );
}

async function runInProcess(
  command: (context: { readonly output: ReturnType<typeof createOutput> }) => Promise<number>,
): Promise<CliResult> {
  const stdout = collector();
  const stderr = collector();
  const output = createOutput(
    false,
    stdout.stream as unknown as typeof process.stdout,
    stderr.stream as unknown as typeof process.stderr,
  );
  let status: number;
  try {
    status = await command({ output });
  } catch (error) {
    printError(output, error);
    status = 1;
  }
  return { status, stdout: stdout.text(), stderr: stderr.text() };
}
