import { readFileSync } from 'node:fs';
import path from 'node:path';
import { docCommentDescription } from './jsdoc.js';

/** The index modules that may describe a group folder, in the order tried. */
export const GROUP_INDEX_FILES = ['index.ts', 'index.mts', 'index.tsx', 'index.js', 'index.mjs'];

/**
 * A group folder's description: the first `/** … *\/` comment of its index module, without tags
 * (`src/tools/issues/index.ts` describes the group `issues`). Read as text: the module holds no tool.
 */
export function groupFolderDescription(root: string, folder: string): string | undefined {
  for (const name of GROUP_INDEX_FILES) {
    let text: string;
    try {
      text = readFileSync(path.join(root, folder, name), 'utf8');
    } catch {
      continue;
    }
    const comment = /\/\*\*[\s\S]*?\*\//.exec(text)?.[0];
    const description = comment === undefined ? '' : docCommentDescription(comment).replace(/\s+/g, ' ');
    return description === '' ? undefined : description;
  }
  return undefined;
}
