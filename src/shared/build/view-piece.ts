/** A piece of a built view, as the CSP proof reads it: its text, and where its bytes came from. */
export interface ViewPiece {
  readonly kind: 'html' | 'script' | 'style';
  readonly text: string;
  /** The file it was written in (an HTML entry), relative to the root: lines count in `text`. */
  readonly file?: string;
  /** esbuild's source map of a bundled piece (sources relative to the root). */
  readonly map?: string;
}
