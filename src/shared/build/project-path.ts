import path from 'node:path';

/** A file as toolprep names it everywhere (manifest, problems, cache): relative to the root, with `/`. */
export function projectPath(root: string, file: string): string {
  return path.relative(root, path.resolve(root, file)).split(path.sep).join('/');
}
