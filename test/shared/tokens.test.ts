import fc from 'fast-check';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { expect, test } from 'vitest';
import { tokensOf } from '../../src/shared/build/tokens.js';

// The counts are the encoding's own, text by text; a special token's text (`<|endoftext|>` in a
// description) is counted as the ordinary text a provider's API encodes it as, never refused.

const AS_TEXT = { disallowedSpecial: new Set<string>() };

test('every text is counted as the encoding counts it', () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.string({ unit: 'grapheme' }), fc.json(), fc.string({ unit: 'binary' })),
      (text) => {
        expect(tokensOf(text)).toBe(countTokens(text, AS_TEXT));
      },
    ),
    { numRuns: 300 },
  );
});

test("a special token's text is counted as ordinary text", () => {
  const text = 'a <|endoftext|> b';
  expect(() => countTokens(text)).toThrow('Disallowed special token found: <|endoftext|>');
  expect(tokensOf(text)).toBe(countTokens(text, AS_TEXT));
  expect(tokensOf(text)).toBeGreaterThan(tokensOf('a  b'));
});
