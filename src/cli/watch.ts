import { type FSWatcher, watch } from 'node:fs';
import path from 'node:path';
import { createGeneratorContext } from '../generate/context.js';
import { describeOutcome } from '../generate/outcome.js';
import type { CommandContext } from './commands.js';
import { printError, printReport } from './output.js';

const WATCHED = /\.(m?ts|tsx|m?js)$/;

/**
 * Regenerates whenever a source file under the root changes, through the same long-lived generator
 * context as the bundler plugins: only what changed is read again, and toolprep's own output never
 * starts a run. Resolves when `signal` aborts.
 */
export async function runWatch(context: CommandContext, signal: AbortSignal): Promise<number> {
  const { output } = context;
  const generator = createGeneratorContext(context.generateOptions);
  const { root } = generator;

  const regenerate = async (reason: string): Promise<void> => {
    try {
      printReport(output, describeOutcome(await generator.run(), { reason, watching: true }));
    } catch (error) {
      // A bug is reported, and watching goes on: the next change may not meet it.
      printError(output, error);
    }
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
  if (!output.quiet) output.out('[toolprep] watching for changes (Ctrl-C to stop)');
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  watcher.close();
  clearTimeout(timer);
  await generator.run().catch(() => undefined);
  return 0;
}
