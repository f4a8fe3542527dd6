import type { Size } from '../manifest/manifest.js';

export function sumOf(sizes: readonly Size[]): Size {
  return {
    bytes: sizes.reduce((sum, size) => sum + size.bytes, 0),
    tokens: sizes.reduce((sum, size) => sum + size.tokens, 0),
  };
}
