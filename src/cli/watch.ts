import { type FSWatcher, watch } from 'node:fs';
import path from 'node:path';
import { writeChangedFiles } from '../emit/write-files.js';
import { generate } from '../generate/generate.js';
import { type CommandContext, summary } from './commands.js';
import { reportProblems } from './output.js';

const WATCHED = /\.(m?ts|tsx|m?js)$/;

/**
 * Regenerates whenever a source file under the root changes. Its own output never triggers a run:
 * the manifest and the module are ignored, and a write that changes nothing does not happen.
 * Resolves when `signal` aborts.
 */
export async function runWatch(context: CommandContext, signal: AbortSignal): Promise<number> {
  const { output, root } = context;
  let ignored = new Set<string>();
  let running: Promise<void> | undefined;
  let again = false;

  const regenerate = async (reason: string): Promise<void> => {
    const result = await generate(context.generateOptions).catch((error: Error) => {
      output.err(output.paint.red(error.message));
      return undefined;
    });
    if (!result) return;
    ignored = new Set([result.config.manifest, result.config.module].map((file) => path.resolve(root, file)));
    reportProblems(output, result.problems, result.warnings);
    // On problems the last good output stays in place.
    if (result.problems.length > 0) return;
    const written = await writeChangedFiles(root, result.files);
    if (!output.quiet) {
      const what = written.length > 0 ? `wrote ${written.join(', ')}` : 'no change';
      output.out(`toolprep: ${reason}: ${summary(result)}; ${what}`);
    }
  };
  const schedule = (reason: string): void => {
    if (running) {
      again = true;
      return;
    }
    running = regenerate(reason).finally(() => {
      running = undefined;
      if (again) {
        again = false;
        schedule('changes during the last run');
      }
    });
  };

  await regenerate('start');
  let timer: NodeJS.Timeout | undefined;
  const watcher: FSWatcher = watch(root, { recursive: true }, (_event, name) => {
    if (!name) return;
    const file = path.resolve(root, name.toString());
    if (
      !WATCHED.test(file) ||
      ignored.has(file) ||
      file.includes(`${path.sep}node_modules${path.sep}`) ||
      file.endsWith('.tmp')
    )
      return;
    clearTimeout(timer);
    timer = setTimeout(() => schedule(`${path.relative(root, file)} changed`), 30);
  });
  if (!output.quiet) output.out('toolprep: watching for changes (Ctrl-C to stop)');
  await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  watcher.close();
  clearTimeout(timer);
  await running;
  return 0;
}
