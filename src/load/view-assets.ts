import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { projectPath } from '../shared/build/project-path.js';
import type { BuildFailure } from './esbuild-failures.js';

/**
 * What a view inlines as `data:` URLs, by extension: images and fonts, whether a script or
 * stylesheet imports them (esbuild's `dataurl` loader) or the markup names them. A view is one
 * document, with nothing beside it.
 */
const ASSET_TYPES: Readonly<Record<string, string>> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.svg': 'image/svg+xml',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
};

export const INLINED_ASSETS = Object.keys(ASSET_TYPES);

/**
 * A comment, a script or style element (its text is code), or any other start tag with its
 * attributes (quoted values may hold `>`).
 */
const MARKUP =
  /<!--[\s\S]*?-->|<(script|style)\b((?:[^>"']|"[^"]*"|'[^']*')*)>([\s\S]*?)<\/\1\s*>|<([a-z][a-z0-9-]*)\b((?:[^>"']|"[^"]*"|'[^']*')*)>/gi;
/** An attribute, its value quoted or bare: read one after another, a quoted value is never read as attributes. */
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g;
/** The attributes whose value is a URL the document loads, submits to or links to. */
const URL_ATTRIBUTES = new Set([
  'src',
  'href',
  'xlink:href',
  'poster',
  'srcset',
  'data',
  'action',
  'formaction',
]);
const CSS_REFERENCE = /(url\(\s*["']?)([^"')\s]+)|(@import\s+["'])([^"']+)/gi;

/** A URL resolved against the document: a scheme, `//`, a fragment alone, or nothing at all. */
const NOT_RELATIVE = /^(?:[a-z][a-z0-9+.-]*:|\/\/|#|$)/i;

/** A relative URL in the markup: where its text starts, and what names it (`<img src>`). */
interface Reference {
  readonly start: number;
  readonly url: string;
  readonly what: string;
}

/**
 * An HTML entry's markup with every relative URL it loads besides the scripts and stylesheets the
 * build bundles (`<img src>`, `<link rel="icon" href>`, `<video poster>`, a `url()` in a `<style>`
 * or `style` attribute) inlined as a `data:` URL. Served as a `ui://` resource, a relative URL
 * resolves to nothing, so one that names no image or font (a page, a JSON file, a missing file) is
 * refused, naming the file, line and attribute (decision 0074). `bundled` holds the offsets of the
 * tags the build inlines itself. Only the URLs' text changes: markup with none comes back as it was.
 */
export async function inlineMarkupAssets(
  root: string,
  entry: string,
  markup: string,
  bundled: ReadonlySet<number>,
): Promise<
  | { ok: true; markup: string; inputs: readonly string[] }
  | { ok: false; failures: readonly BuildFailure[]; inputs: readonly string[] }
> {
  const references = relativeReferences(markup, bundled);
  if (references.length === 0) return { ok: true, markup, inputs: [] };
  const file = projectPath(root, entry);
  const failures: BuildFailure[] = [];
  const inputs = new Set<string>();
  const assets = new Map<string, string>();
  for (const { start, url, what } of references) {
    if (assets.has(url)) continue;
    const refuse = (reason: string) =>
      failures.push({
        file,
        line: markup.slice(0, start).split('\n').length,
        message: `${what} "${url}" is relative, which resolves to nothing once the view is served as a ui:// resource, and ${reason}: inline what it names in a script, or load it from an origin listed in view.csp`,
      });
    const extension = path.extname(url).toLowerCase();
    const type = ASSET_TYPES[extension];
    if (/[?#]/.test(url)) refuse('it names a part of a file, which toolprep cannot inline');
    else if (url.startsWith('/')) refuse('it names a path on the host, not a file of the project');
    else if (!type)
      refuse(
        `toolprep inlines images and fonts only (${INLINED_ASSETS.join(', ')}), not "${extension || url}"`,
      );
    else {
      const source = path.resolve(path.dirname(entry), safeDecode(url));
      const fromRoot = path.relative(root, source);
      if (fromRoot.startsWith('..') || path.isAbsolute(fromRoot)) {
        refuse('it names a file outside the project, which a view never carries');
        continue;
      }
      // Watched even when missing: creating the file is the fix.
      inputs.add(projectPath(root, source));
      try {
        assets.set(url, `data:${type};base64,${(await readFile(source)).toString('base64')}`);
      } catch (error) {
        refuse(`it cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
      }
    }
  }
  if (failures.length > 0) return { ok: false, failures, inputs: [...inputs] };
  let inlined = markup;
  for (const { start, url } of [...references].sort((a, b) => b.start - a.start))
    inlined = `${inlined.slice(0, start)}${assets.get(url)}${inlined.slice(start + url.length)}`;
  return { ok: true, markup: inlined, inputs: [...inputs] };
}

/** Every relative URL of the markup outside the tags the build bundles, comments and scripts' text. */
function relativeReferences(markup: string, bundled: ReadonlySet<number>): Reference[] {
  const references: Reference[] = [];
  const note = (start: number, url: string, what: string) => {
    if (!NOT_RELATIVE.test(url)) references.push({ start, url, what });
  };
  const noteCss = (css: string, at: number, what: string) => {
    for (const match of css.matchAll(CSS_REFERENCE)) {
      const head = (match[1] ?? match[3]) as string;
      note(
        at + match.index + head.length,
        (match[2] ?? match[4]) as string,
        `${what} ${match[1] ? 'url()' : '@import'}`,
      );
    }
  };
  const noteAttributes = (tag: string, attributes: string, at: number) => {
    const element = tag.toLowerCase();
    for (const match of attributes.matchAll(ATTRIBUTE)) {
      const name = (match[1] as string).toLowerCase();
      const value = match[2] ?? match[3] ?? match[4];
      if (value === undefined || (name !== 'style' && !URL_ATTRIBUTES.has(name))) continue;
      const start = at + match.index + match[0].length - value.length - (match[4] === undefined ? 1 : 0);
      const what = `<${element} ${name}>`;
      if (name === 'style') noteCss(value, start, what);
      else if (name === 'srcset')
        for (const candidate of srcsetCandidates(value)) note(start + candidate.start, candidate.url, what);
      else {
        const url = value.trim();
        note(start + value.indexOf(url), url, what);
      }
    }
  };
  for (const match of markup.matchAll(MARKUP)) {
    if (bundled.has(match.index) || match[0].startsWith('<!--')) continue;
    const [, element, elementAttributes, text, tag, attributes] = match;
    if (element !== undefined) {
      noteAttributes(element, elementAttributes as string, match.index + 1 + element.length);
      if (element.toLowerCase() === 'style')
        noteCss(text as string, match.index + match[0].indexOf('>') + 1, '<style>');
    } else noteAttributes(tag as string, attributes as string, match.index + 1 + (tag as string).length);
  }
  return references;
}

/**
 * The URLs of a `srcset`, each where it starts: a candidate is a run of non-space (trailing commas
 * not part of it), then descriptors up to a comma (the HTML standard's parsing, short of errors).
 */
function srcsetCandidates(value: string): { start: number; url: string }[] {
  const candidates: { start: number; url: string }[] = [];
  let index = 0;
  while (index < value.length) {
    while (index < value.length && /[\s,]/.test(value[index] as string)) index++;
    if (index >= value.length) break;
    const start = index;
    while (index < value.length && !/\s/.test(value[index] as string)) index++;
    const run = value.slice(start, index);
    const url = run.replace(/,+$/, '');
    if (url === run) while (index < value.length && value[index] !== ',') index++;
    if (url !== '') candidates.push({ start, url });
  }
  return candidates;
}

function safeDecode(url: string): string {
  try {
    return decodeURIComponent(url);
  } catch {
    return url;
  }
}
