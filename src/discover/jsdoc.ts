import type * as TsMorph from 'ts-morph';

/** The description of the `/** … *\/` comment right before a node, without tags. */
export function optionalJsDoc(node: TsMorph.Node): { jsdoc?: string } {
  const comment = node
    .getLeadingCommentRanges()
    .map((range) => range.getText())
    .filter(isDocComment)
    .at(-1);
  const description = comment && docCommentDescription(comment);
  return description ? { jsdoc: description } : {};
}

/** `/** … *\/`, as TypeScript tells a doc comment: `/**\/` is an empty block comment, not one. */
export function isDocComment(comment: string): boolean {
  return comment.startsWith('/**') && !comment.startsWith('/**/');
}

/** A `/** … *\/` comment's text before its first tag, its lines joined; empty when it has none. */
export function docCommentDescription(comment: string): string {
  const lines = comment
    .replace(/^\/\*\*/, '')
    .replace(/\*\/$/, '')
    .split('\n')
    .map((line) => line.replace(/^\s*\*?\s?/, '').trimEnd());
  const tagAt = lines.findIndex((line) => line.startsWith('@'));
  return (tagAt === -1 ? lines : lines.slice(0, tagAt)).join('\n').trim();
}
