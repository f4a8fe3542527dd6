import { type FSWatcher, watch } from 'node:fs';
import path from 'node:path';
import { createGeneratorContext } from '../generate/context.js';
import { type CommandContext, summary } from './commands.js';
import { reportProblems } from './output.js';

const WATCHED = /\.(m?ts|tsx|m?js)$/;

/**
 * Regenerates whenever a source file under the root changes, through the same long-lived generator
 * context as the bundler plugins: only what changed is read again, and toolprep's own output never
 * starts a run. Resolves when `signal` aborts.
 */
export async function runWatch(context: CommandContext, signal: AbortSignal): Promise<number> {
  const { output, root } = context;
  const generator = createGeneratorContext(context.generateOptions);

  const regenerate = async (reason: string): Promise<void> => {
    const outcome = await generator.run().catch((error: Error) => {
      output.err(output.paint.red(error.message));
      return undefined;
    });
    if (!outcome?.ran || !outcome.result) return;
    reportProblems(output, outcome.problems, outcome.warnings);
    // On problems the last good output stays in place.
    if (outcome.problems.length > 0 || output.quiet) return;
    const what = outcome.written.length > 0 ? `wrote ${outcome.written.join(', ')}` : 'no change';
    output.out(`toolprep: ${reason}: ${summary(outcome.result)}; ${what}`);
  };

  await regenerate('start');
  let timer: NodeJS.Timeout | undefined;
  const watcher: FSWatcher = watch(root, { recursive: true }, (_event, name) => {
    if (!name) return;
    const file = path.resolve(root, name.toString());
    if (
      !WATCHED.test(file) ||
      generator.isOutput(file) ||
      file.includes(`${path.sep}node_modules${path.sep}`)
    )
      return;
    clearTimeout(timer);
    timer = setTimeout(() => void regenerate(`${path.relative(root, file)} changed`), 30);
  });
  if (!output.quiet) output.out('toolprep: watching for changes (Ctrl-C to stop)');
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  watcher.close();
  clearTimeout(timer);
  await generator.run().catch(() => undefined);
  return 0;
}
