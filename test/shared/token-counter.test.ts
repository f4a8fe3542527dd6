import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, describe, expect, test } from 'vitest';
import { TokenCounter, tokenCounter } from '../../src/shared/build/token-counter.js';
import { BUILD_PACKAGE } from '../support/fixture-project.js';

// The counts from the counting thread are the encoding's own, batch by batch; a text the encoding
// refuses is refused with its error; a thread that cannot load or dies leaves the counts to this
// thread, still the encoding's; and the thread never keeps a process alive.

const texts = fc.array(fc.oneof(fc.string({ unit: 'grapheme' }), fc.json(), fc.string({ unit: 'binary' })), {
  maxLength: 40,
});

const folder = mkdtempSync(path.join(tmpdir(), 'toolprep-token-counter-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/** A module the counting thread loads in place of the encoding. */
function encodingModule(name: string, source: string): string {
  const file = path.join(folder, `${name}.cjs`);
  writeFileSync(file, source);
  return file;
}

describe('the counting thread', () => {
  test('counts every text of a batch as the encoding counts it', async () => {
    await fc.assert(
      fc.asyncProperty(texts, async (batch) => {
        const counts = await Promise.all(batch.map((text) => tokenCounter().count(text)));
        expect(counts).toEqual(batch.map((text) => countTokens(text)));
      }),
      { numRuns: 60 },
    );
  });

  test("refuses a special token with the encoding's error, and counts the rest of its batch", async () => {
    const counter = tokenCounter();
    const [refused, counted] = await Promise.allSettled([
      counter.count('a <|endoftext|> b'),
      counter.count('one more text'),
    ]);
    expect(refused).toMatchObject({
      status: 'rejected',
      reason: expect.objectContaining({ message: 'Disallowed special token found: <|endoftext|>' }),
    });
    expect(counted).toEqual({ status: 'fulfilled', value: countTokens('one more text') });
  });

  test('sizes what it counted without waiting, and calls any other value a bug', async () => {
    const shown = [{ name: 'a', description: 'Read a file.' }, { name: 'b' }];
    const measure = await tokenCounter().measureAll(shown);
    for (const value of shown) {
      const text = JSON.stringify(value);
      expect(measure(value)).toEqual({ bytes: Buffer.byteLength(text), tokens: countTokens(text) });
    }
    expect(() => measure({ name: 'c' })).toThrow('was measured but not counted: this is a bug in toolprep');
  });

  test.each([
    ['cannot load the encoding', "throw new Error('no tables here');"],
    ['dies with texts sent to it', 'exports.countTokens = () => process.exit(3);'],
  ])('that %s leaves the counts to this thread', async (name, source) => {
    const counter = new TokenCounter(encodingModule(name.replace(/\W+/g, '-'), source));
    const batch = ['first text', '{"name":"read_file"}', 'ünïcödé ✓'];
    expect(await Promise.all(batch.map((text) => counter.count(text)))).toEqual(
      batch.map((text) => countTokens(text)),
    );
    expect(await counter.count('after it')).toBe(countTokens('after it'));
  });

  test('never keeps a process alive, and holds it while a count is awaited', () => {
    const counterModule = path.join(BUILD_PACKAGE, 'dist/src/shared/build/token-counter.js');
    // A module file: Node ends a process run with -e by another path, which hides a leftover ref.
    const run = (name: string, script: string) => {
      const file = path.join(folder, `${name}.mjs`);
      writeFileSync(file, `import { tokenCounter } from ${JSON.stringify(counterModule)};\n${script}\n`);
      return spawnSync(process.execPath, [file], { encoding: 'utf8', timeout: 60_000 });
    };
    // Started and never asked: the process ends with its work.
    expect(run('never-asked', 'tokenCounter();')).toMatchObject({ status: 0, signal: null });
    // Asked, with nothing else to keep the process alive: the answer comes, then the process ends.
    expect(run('asked', "console.log(await tokenCounter().count('hello world'));")).toMatchObject({
      status: 0,
      signal: null,
      stdout: `${countTokens('hello world')}\n`,
    });
  });
});
