import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { afterAll, describe, expect, test } from 'vitest';
import { TokenCounter, tokenCounter } from '../../src/shared/build/token-counter.js';
import { tokensOf } from '../../src/shared/build/tokens.js';
import { BUILD_PACKAGE } from '../support/fixture-project.js';

// The counts from the counting thread are the encoding's own, batch by batch, a special token's
// text counted as ordinary text; a thread that cannot load or dies leaves the counts to this
// thread, still the encoding's; the thread never keeps a process alive, and ends when idle.

const texts = fc.array(fc.oneof(fc.string({ unit: 'grapheme' }), fc.json(), fc.string({ unit: 'binary' })), {
  maxLength: 40,
});

/** How every count is made: a special token's text is ordinary text, as a provider's API encodes it. */
const AS_TEXT = { disallowedSpecial: new Set<string>() };

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
        expect(counts).toEqual(batch.map((text) => countTokens(text, AS_TEXT)));
      }),
      { numRuns: 60 },
    );
  });

  test("counts a special token's text as ordinary text, on the thread and here alike", async () => {
    const text = 'Stop at <|endoftext|> or <|fim_prefix|>.';
    const expected = countTokens(text, AS_TEXT);
    expect(await tokenCounter().count(text)).toBe(expected);
    expect(tokensOf(text)).toBe(expected);
  });

  test('ends its thread when idle, and starts another for the next count', async () => {
    const counter = new TokenCounter({ idleMilliseconds: 50 });
    expect(await counter.count('first')).toBe(countTokens('first'));
    expect(counter.threadRunning).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(counter.threadRunning).toBe(false);
    expect(await counter.count('second text')).toBe(countTokens('second text'));
    expect(counter.threadRunning).toBe(true);
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
    const counter = new TokenCounter({ encoding: encodingModule(name.replace(/\W+/g, '-'), source) });
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
