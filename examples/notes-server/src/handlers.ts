import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { ToolHandlers } from './toolprep.gen.js';

/** The handlers, typed by the contracts: they work on the notes under `root`. */
export function createHandlers(root: string): ToolHandlers {
  const tags = new Map<string, string[]>();
  const outlines = new Map<string, unknown>();
  const resolve = (note: string): string => {
    const file = path.resolve(root, note);
    if (!file.startsWith(`${path.resolve(root)}${path.sep}`))
      throw new Error(`"${note}" is outside the notes folder`);
    return file;
  };
  const list = async (folder = ''): Promise<string[]> => {
    const entries = await readdir(resolve(folder || '.'), { recursive: true, withFileTypes: true }).catch(
      () => [],
    );
    return entries
      .filter((entry) => entry.isFile())
      .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
      .sort();
  };
  const countSections = (sections: { children?: unknown[] }[]): number =>
    sections.reduce(
      (sum, section) => sum + 1 + countSections((section.children ?? []) as { children?: unknown[] }[]),
      0,
    );

  return {
    read_notes: async ({ paths }) => ({
      notes: await Promise.all(
        [paths].flat().map(async (note) => ({ path: note, text: await readFile(resolve(note), 'utf8') })),
      ),
    }),
    write_note: async ({ path: note, text, overwrite }) => {
      await mkdir(path.dirname(resolve(note)), { recursive: true });
      await writeFile(resolve(note), text, { flag: overwrite ? 'w' : 'wx' });
      return `wrote ${note} (${text.length} characters)`;
    },
    edit_note: async (change) => {
      const file = resolve(change.path);
      if (change.action === 'rename') {
        await rename(file, resolve(change.to));
        return `renamed ${change.path} to ${change.to}`;
      }
      const text = await readFile(file, 'utf8');
      if (change.action === 'append') await writeFile(file, text + change.text);
      else if (!text.includes(change.find)) throw new Error(`"${change.find}" is not in ${change.path}`);
      else await writeFile(file, text.replaceAll(change.find, change.with));
      return `${change.action === 'append' ? 'appended to' : 'edited'} ${change.path}`;
    },
    delete_notes: async ({ paths }) => {
      for (const note of [paths].flat()) await rm(resolve(note), { force: true });
      return `deleted ${[paths].flat().length} note(s)`;
    },
    tag_notes: async ({ notes }) => {
      for (const note of notes) tags.set(note.path, note.tags);
      return `tagged ${notes.length} note(s)`;
    },
    set_outline: async ({ path: note, outline }) => {
      outlines.set(note, outline);
      return { sections: countSections(outline) };
    },
    search_notes: async ({ query, limit }) => {
      const matches: { path: string; line: number; text: string }[] = [];
      for (const note of await list()) {
        const lines = (await readFile(resolve(note), 'utf8')).split('\n');
        lines.forEach((text, index) => {
          if (text.toLowerCase().includes(query.toLowerCase()))
            matches.push({ path: note, line: index + 1, text });
        });
      }
      return { matches: matches.slice(0, limit) };
    },
    list_notes: async ({ folder }) =>
      (await list(folder)).map((note) => ({ path: note, tags: tags.get(note) ?? [] })),
  };
}
