import path from 'node:path';
import { build, type Metafile } from 'esbuild';

/** A Worker's one bundle of `entry` (relative to `dir`), as a Workers build makes it, and what went into it. */
export async function bundleWorker(
  dir: string,
  entry: string,
): Promise<{ readonly text: string; readonly inputs: Metafile['inputs'] }> {
  const built = await build({
    absWorkingDir: dir,
    entryPoints: [path.join(dir, entry)],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['workerd', 'worker', 'browser'],
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  return { text: built.outputFiles[0]?.text ?? '', inputs: built.metafile.inputs };
}
