import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { OutputFile } from 'esbuild';
import { projectPath } from '../shared/build/project-path.js';
import type { ViewPiece } from '../shared/build/view-piece.js';
import { type BuildFailure, esbuildFailures } from './esbuild-failures.js';
import { INLINED_ASSETS, inlineMarkupAssets } from './view-assets.js';

export interface BuiltView {
  /** The one self-contained HTML document: scripts and styles inlined. */
  readonly html: string;
  readonly pieces: readonly ViewPiece[];
  /** Every local file the view was built from, relative to the root, sorted. */
  readonly inputs: readonly string[];
}

/** Why a view could not be built, and the local files known to matter: a change to one may fix it. */
export interface ViewBuildFailed {
  readonly failures: readonly BuildFailure[];
  /** Relative to the root, sorted: the entry, the files its markup names, the files the errors name. */
  readonly inputs: readonly string[];
}

/** A `<script src>` or stylesheet `<link href>` of a local file: what an HTML entry's build inlines. */
const LOCAL_SCRIPT =
  /<script\b([^>]*?)\ssrc=(["'])(?![a-z][a-z0-9+.-]*:|\/\/)([^"']+)\2([^>]*)>\s*<\/script\s*>/gi;
const LOCAL_STYLESHEET =
  /<link\b(?=[^>]*\brel=(["'])stylesheet\1)[^>]*?\shref=(["'])(?![a-z][a-z0-9+.-]*:|\/\/)([^"']+)\2[^>]*>/gi;

/**
 * Builds a view's entry into one HTML document with esbuild, the bundler toolprep already loads
 * contracts with, so that every bundler plugin and the CLI write the same bytes
 * (docs/decisions/0057-views-built-at-build.md). An HTML entry keeps its markup and has each local
 * script and stylesheet it names bundled and inlined; a module entry is bundled into a minimal
 * document. `entry` is absolute.
 */
export async function buildView(
  root: string,
  entry: string,
): Promise<{ ok: true; view: BuiltView } | ({ ok: false } & ViewBuildFailed)> {
  const { build } = await import('esbuild');
  const isHtml = /\.html?$/i.test(entry);
  let markup: string | undefined;
  if (isHtml) {
    try {
      markup = await readFile(entry, 'utf8');
    } catch (error) {
      const file = projectPath(root, entry);
      return { ok: false, failures: [{ file, message: `cannot be read: ${String(error)}` }], inputs: [file] };
    }
  }
  const scriptTags = isHtml ? [...(markup as string).matchAll(LOCAL_SCRIPT)] : [];
  const styleTags = isHtml ? [...(markup as string).matchAll(LOCAL_STYLESHEET)] : [];
  const entryPoints = isHtml
    ? [...scriptTags, ...styleTags].map((match) => path.resolve(path.dirname(entry), match[3] as string))
    : [entry];
  let outputs: readonly OutputFile[] = [];
  let inputs: string[] = [projectPath(root, entry), ...entryPoints.map((file) => projectPath(root, file))];
  // The tags the build inlines itself, by where they start: the markup's other relative URLs are the assets'.
  const bundled = new Set([...scriptTags, ...styleTags].map((match) => match.index));
  const assets = isHtml ? await inlineMarkupAssets(root, entry, markup as string, bundled) : undefined;
  const failed = (failures: readonly BuildFailure[]) => ({
    ok: false as const,
    failures,
    inputs: sortedInputs([
      ...inputs,
      ...(assets?.inputs ?? []),
      // As a good build's: the project's files, not its packages'.
      ...failures.flatMap((failure) =>
        failure.file && !failure.file.includes('node_modules/')
          ? [projectPath(root, path.resolve(root, failure.file))]
          : [],
      ),
    ]),
  });
  if (assets && !assets.ok) return failed(assets.failures);
  if (entryPoints.length > 0) {
    try {
      const result = await build({
        absWorkingDir: root,
        entryPoints,
        // Nothing is written: the outputs' paths only name them, relative to the root.
        outdir: root,
        outbase: root,
        entryNames: '[dir]/[name]',
        write: false,
        bundle: true,
        format: 'esm',
        platform: 'browser',
        target: 'es2022',
        minify: true,
        sourcemap: 'external',
        sourcesContent: false,
        legalComments: 'none',
        charset: 'utf8',
        jsx: 'automatic',
        define: { 'process.env.NODE_ENV': '"production"' },
        loader: Object.fromEntries(INLINED_ASSETS.map((extension) => [extension, 'dataurl' as const])),
        metafile: true,
        logLevel: 'silent',
      });
      outputs = result.outputFiles;
      inputs = [
        ...(isHtml ? [projectPath(root, entry)] : []),
        ...Object.keys(result.metafile.inputs).filter((file) => !file.includes('node_modules/')),
      ];
    } catch (error) {
      return failed(esbuildFailures(error));
    }
  }
  const outputOf = (source: string, extension: '.js' | '.css'): OutputFile | undefined => {
    const stem = projectPath(root, path.resolve(path.dirname(entry), source)).replace(/\.[^./]+$/, '');
    return outputs.find((output) => projectPath(root, output.path) === `${stem}${extension}`);
  };
  // The map's sources are relative to its output: made relative to the root, as problems name files.
  const mapOf = (output: OutputFile): string | undefined => {
    const text = outputs.find((candidate) => candidate.path === `${output.path}.map`)?.text;
    if (text === undefined) return undefined;
    const map = JSON.parse(text) as { sources: string[] };
    map.sources = map.sources.map((source) =>
      projectPath(root, path.resolve(path.dirname(output.path), source)),
    );
    return JSON.stringify(map);
  };
  const pieces: ViewPiece[] = [];
  const scriptTag = (output: OutputFile | undefined): string => {
    if (!output) return '';
    pieces.push({ kind: 'script', text: output.text, ...mapField(mapOf(output)) });
    return `<script type="module">${inlineScript(output.text)}</script>`;
  };
  const styleTag = (output: OutputFile | undefined): string => {
    if (!output) return '';
    pieces.push({ kind: 'style', text: output.text, ...mapField(mapOf(output)) });
    return `<style>${inlineStyle(output.text)}</style>`;
  };
  let html: string;
  if (isHtml) {
    const file = projectPath(root, entry);
    pieces.push({ kind: 'html', text: markup as string, file });
    html = (assets?.ok ? assets.markup : (markup as string))
      .replace(LOCAL_STYLESHEET, (_tag, _rel, _quote, source: string) => styleTag(outputOf(source, '.css')))
      .replace(
        LOCAL_SCRIPT,
        (_tag, _before, _quote, source: string) =>
          // A module's own CSS imports come out beside its script.
          `${styleTag(outputOf(source, '.css'))}${scriptTag(outputOf(source, '.js'))}`,
      );
  } else {
    const source = path.basename(entry);
    html = `<!doctype html>\n<html>\n<head>\n<meta charset="utf-8">\n<meta name="viewport" content="width=device-width, initial-scale=1">\n${styleTag(outputOf(source, '.css'))}\n</head>\n<body>\n<div id="root"></div>\n${scriptTag(outputOf(source, '.js'))}\n</body>\n</html>\n`;
  }
  return { ok: true, view: { html, pieces, inputs: sortedInputs([...inputs, ...(assets?.inputs ?? [])]) } };
}

function sortedInputs(inputs: readonly string[]): string[] {
  return [...new Set(inputs)].sort();
}

function mapField(map: string | undefined): { map?: string } {
  return map === undefined ? {} : { map };
}

/**
 * Script text safe inside `<script>`: a `</script` or `<!--` in it would end or change the
 * element. Escaped with a backslash, which means the same inside a string, a template or a regex.
 */
function inlineScript(code: string): string {
  return code
    .replace(/<\/(script)/gi, '<\\/$1')
    .replace(/<!--/g, '<\\!--')
    .trimEnd();
}

/** Style text safe inside `<style>`: `</style` ends it; CSS reads `<\/style` as the same characters. */
function inlineStyle(css: string): string {
  return css.replace(/<\/(style)/gi, '<\\/$1').trimEnd();
}
