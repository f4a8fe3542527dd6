import { createGeneratorContext } from '../generate/context.js';
import { describeOutcome } from '../generate/outcome.js';
import { type SourceWatcher, watchSources } from '../generate/watch.js';
import type { CommandContext } from './commands.js';
import { printError, printReport } from './output.js';

/**
 * Regenerates whenever a source changes, through the same long-lived generator context and the
 * same source watcher as the bundler plugins: only what changed is read again, and toolprep's own
 * output never starts a run. Resolves when `signal` aborts.
 */
export async function runWatch(context: CommandContext, signal: AbortSignal): Promise<number> {
  const { output } = context;
  const generator = createGeneratorContext(context.generateOptions);

  const regenerate = async (reason: string): Promise<void> => {
    try {
      printReport(output, describeOutcome(await generator.run(), { reason, watching: true }));
    } catch (error) {
      // A bug is reported, and watching goes on: the next change may not meet it.
      printError(output, error);
    }
    // The run may have changed `include` or the config file.
    watcher?.update();
  };

  let watcher: SourceWatcher | undefined;
  await regenerate('start');
  watcher = watchSources(generator, {
    configFile: context.generateOptions.configFile,
    onChange: regenerate,
  });
  if (!output.quiet) output.out('[toolprep] watching for changes (Ctrl-C to stop)');
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  watcher.close();
  await generator.run().catch(() => undefined);
  return 0;
}
