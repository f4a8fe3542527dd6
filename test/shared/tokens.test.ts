import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { expect, test } from 'vitest';
import { tokensOf } from '../../src/shared/build/tokens.js';

// The counts are the encoding's own, text by text, and a text the encoding refuses is refused
// with its error.

test('every text is counted as the encoding counts it', () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.string({ unit: 'grapheme' }), fc.json(), fc.string({ unit: 'binary' })),
      (text) => {
        expect(tokensOf(text)).toBe(countTokens(text));
      },
    ),
    { numRuns: 300 },
  );
});

test("a special token in a text throws the encoding's error, and the next text is counted", () => {
  expect(() => tokensOf('a <|endoftext|> b')).toThrow('Disallowed special token found: <|endoftext|>');
  expect(tokensOf('one more text')).toBe(countTokens('one more text'));
});
