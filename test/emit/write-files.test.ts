import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { piecedFile, type WriteMemo, writeChangedFiles } from '../../src/emit/write-files.js';
import { propertyRuns } from '../support/property-runs.js';

/**
 * The generated files are made in pieces and written without being made whole (pieced.ts): what
 * lands on disk must be their text byte for byte, and a text that did not change, however its
 * pieces are cut, is not written again, so that its mtime wakes no watcher.
 */

const RUNS = propertyRuns(60);
let root: string;

beforeEach(() => {
  root = mkdtempSync(path.join(tmpdir(), 'toolprep-write-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const onDisk = (file: string) => readFileSync(path.join(root, file), 'utf8');

/** `text` cut at `cuts` (offsets, any order), each piece whole UTF-16 units. */
function cutAt(text: string, cuts: readonly number[]): string[] {
  const offsets = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort((a, b) => a - b);
  return [0, ...offsets].map((start, index) => text.slice(start, [...offsets, text.length][index]));
}

describe('files written in pieces', () => {
  test.each([
    ['pieces of text', ['{\n  "tools": [', '\n    {"a": 1}', ',\n    ', '{"b": 2}', '\n  ]\n}\n']],
    ['text outside ASCII, pieces of a few bytes each', ['ключ ', '→ ', '日本語', ' 🙂', '']],
    // Larger than the chunk a write is encoded into, beside small pieces.
    ['a piece of 3 MB between small ones', ['head ', 'é'.repeat(1_500_000), ' tail', '🙂'.repeat(10)]],
    [
      'many pieces that fill the chunk many times',
      Array.from({ length: 5000 }, (_, index) => `line ${index} ✓\n`.repeat(50)),
    ],
    ['no pieces', []],
  ])('%s: the file is their text', async (_name, pieces) => {
    const written = await writeChangedFiles(root, [piecedFile('out/file.json', pieces)]);
    expect(written).toEqual(['out/file.json']);
    expect(onDisk('out/file.json')).toBe(pieces.join(''));
  });

  test('a text read whole is the text of its pieces', () => {
    const pieces = ['a', 'b', 'c'];
    expect(piecedFile('x', pieces).text).toBe('abc');
  });

  test(`a text written again, cut otherwise, is written only if it changed (${RUNS} random pairs)`, async () => {
    const text = fc.string({ unit: 'binary', maxLength: 200 });
    const cuts = fc.array(fc.nat(), { maxLength: 8 });
    await fc.assert(
      fc.asyncProperty(
        text,
        cuts,
        fc.oneof(text, fc.constant(undefined)),
        cuts,
        fc.boolean(),
        fc.boolean(),
        async (first, firstCuts, other, nextCuts, remembered, touched) => {
          // Undefined: the same text again.
          const next = other ?? first;
          const memo: WriteMemo | undefined = remembered ? new Map() : undefined;
          const file = path.join(root, 'file.txt');
          rmSync(file, { force: true });
          await writeChangedFiles(root, [piecedFile('file.txt', cutAt(first, firstCuts))], memo);
          // Touched: with a memo, the stamp changed, so the file is read again, as after an edit by
          // hand; untouched, the memo's pieces are what the next text is compared with.
          if (touched) {
            const old = new Date(Date.now() - 60_000);
            utimesSync(file, old, old);
          }
          const { mtimeMs } = statSync(file);
          const written = await writeChangedFiles(
            root,
            [piecedFile('file.txt', cutAt(next, nextCuts))],
            memo,
          );
          expect(written).toEqual(next === first ? [] : ['file.txt']);
          expect(onDisk('file.txt')).toBe(next);
          if (next === first) expect(statSync(file).mtimeMs).toBe(mtimeMs);
        },
      ),
      { numRuns: RUNS },
    );
  });

  test('a file written with a memo is compared with what the memo holds while its stamp holds', async () => {
    const memo: WriteMemo = new Map();
    const pieces = ['one ', 'two ', 'three'];
    await writeChangedFiles(root, [piecedFile('kept.txt', pieces)], memo);
    const { mtimeMs } = statSync(path.join(root, 'kept.txt'));
    expect(await writeChangedFiles(root, [piecedFile('kept.txt', ['one two ', 'three'])], memo)).toEqual([]);
    expect(await writeChangedFiles(root, [piecedFile('kept.txt', ['one two ', 'four'])], memo)).toEqual([
      'kept.txt',
    ]);
    expect(onDisk('kept.txt')).toBe('one two four');
    expect(statSync(path.join(root, 'kept.txt')).mtimeMs).toBeGreaterThanOrEqual(mtimeMs);
  });
});
