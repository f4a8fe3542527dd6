import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The code blocks of the documentation, as the snippet test reads them. A ```ts, ```typescript or
 * ```js block is one file of its page's project:
 *
 * - its first line may name the file, `// src/server.ts` (anything after a space is a comment:
 *   `// src/mcp.ts — what every platform below imports`); a block that names none is
 *   `src/snippet-<n>.ts` (`.mjs` for js), n counting the page's blocks from 1;
 * - `<!-- snippet: fragment -->` on the line before it (blank lines between allowed) leaves it out:
 *   for a block that cannot stand alone, such as an excerpt of a file another page shows;
 * - `<!-- snippet: given runtime, model -->` gives it names that its page's prose takes for granted
 *   (your runtime, your model) from the harness's `given` module: `handlers`, `runtime`, `model`,
 *   `prompt` (test/support/docs-project.ts);
 *   `<!-- snippet: argv list -->` runs it with these arguments; `<!-- snippet: project reports -->`
 *   puts it in a project of its own beside the page's (for an example with tools of its own);
 *   directives join with `;` (`<!-- snippet: given runtime; argv list -->`).
 *
 * A block that calls `Deno.` runs in Deno, one that calls `Bun.` in Bun, any other in Node.
 */
export interface Snippet {
  /** The page, relative to the repository: `docs/guide/profiles.md`. */
  readonly page: string;
  /** The page's line of the block's first line of code. */
  readonly line: number;
  /** The file in the page's project: `src/server.ts`, `src/snippet-2.ts`. */
  readonly file: string;
  readonly code: string;
  /** Names the block takes from the harness. */
  readonly given: readonly string[];
  /** The arguments it runs with. */
  readonly argv: readonly string[];
  /** The page's project it belongs to: `''`, the page's own, or one named by `project`. */
  readonly project: string;
  readonly runtime: 'node' | 'deno' | 'bun';
}

export interface PageSnippets {
  readonly page: string;
  /** Which of the page's projects these blocks make: `''`, or the name a `project` directive gives. */
  readonly project: string;
  readonly snippets: readonly Snippet[];
  /** Where the blocks left out as fragments start: `docs/guide/projects.md:71`. */
  readonly fragments: readonly string[];
  /** The page's text, for what its prose says (the commands that run a file). */
  readonly text: string;
}

const FENCE = /^(\s*)```(ts|typescript|js)\s*$/;
const CLOSE = /^\s*```\s*$/;
const MARKER = /^\s*<!--\s*snippet:\s*(.*?)\s*-->\s*$/;
const NAME = /^\/\/ ((?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.(?:ts|mts|tsx|js|mjs))(?:\s|$)/;

/** The pages whose code blocks are read: README.md and every page under docs/. */
export function documentationPages(root: string): string[] {
  const docs = readdirSync(path.join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => `docs/${file.split(path.sep).join('/')}`)
    .sort();
  return ['README.md', ...docs];
}

/** Every code block of a page, as files of its project. */
export function readSnippets(root: string, page: string): PageSnippets {
  const text = readFileSync(path.join(root, page), 'utf8');
  const lines = text.split('\n');
  const snippets: Snippet[] = [];
  const fragments: string[] = [];
  let count = 0;
  for (let at = 0; at < lines.length; at++) {
    const fence = FENCE.exec(lines[at] ?? '');
    if (!fence) continue;
    const [, indent = '', language] = fence;
    const start = at + 1;
    let end = start;
    while (end < lines.length && !CLOSE.test(lines[end] ?? '')) end++;
    const code = lines
      .slice(start, end)
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line.trimStart()))
      .join('\n');
    at = end;
    count++;
    const directives = directivesBefore(lines, start - 1);
    if (directives.has('fragment')) {
      fragments.push(`${page}:${start + 1}`);
      continue;
    }
    snippets.push({
      page,
      line: start + 1,
      file: NAME.exec(code)?.[1] ?? `src/snippet-${count}.${language === 'js' ? 'mjs' : 'ts'}`,
      code: `${code}\n`,
      given:
        directives
          .get('given')
          ?.split(/[\s,]+/)
          .filter(Boolean) ?? [],
      argv: directives.get('argv')?.split(/\s+/).filter(Boolean) ?? [],
      project: directives.get('project') ?? '',
      runtime: /\bDeno\./.test(code) ? 'deno' : /\bBun\./.test(code) ? 'bun' : 'node',
    });
  }
  return { page, project: '', snippets, fragments, text };
}

/** A page's blocks by the project they make: the page's own first, then each named one. */
export function projectsOf(page: PageSnippets): PageSnippets[] {
  const names = [...new Set(['', ...page.snippets.map((snippet) => snippet.project)])];
  return names
    .map((project, index) => ({
      ...page,
      project,
      snippets: page.snippets.filter((snippet) => snippet.project === project),
      fragments: index === 0 ? page.fragments : [],
    }))
    .filter((group) => group.snippets.length > 0 || group.project === '');
}

/**
 * The directives of the `<!-- snippet: … -->` marker on the line before a fence (blank lines
 * between allowed), each by its first word: `given runtime, model` → `given` → `runtime, model`.
 */
function directivesBefore(lines: readonly string[], fence: number): Map<string, string> {
  let at = fence - 1;
  while (at >= 0 && (lines[at] ?? '').trim() === '') at--;
  const marker = MARKER.exec(lines[at] ?? '')?.[1] ?? '';
  const directives = new Map<string, string>();
  for (const directive of marker
    .split(';')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [word = '', ...rest] = directive.split(/\s+/);
    if (!['fragment', 'given', 'argv', 'project'].includes(word))
      throw new Error(`${lines[at]}: unknown snippet directive "${word}" (fragment, given, argv, project)`);
    directives.set(word, rest.join(' '));
  }
  return directives;
}
