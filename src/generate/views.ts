import path from 'node:path';
import type { ResolvedToolprepConfig } from '../config/options.js';
import type { ContractRef } from '../discover/find-contracts.js';
import { type EmittableView, htmlOfViewModule, viewFiles, viewPaths } from '../emit/views.js';
import { type GeneratedFile, readText } from '../emit/write-files.js';
import { buildView } from '../load/build-view.js';
import type { Manifest, ManifestView } from '../manifest/manifest.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import { proveViewCsp } from '../prepare/view-csp.js';
import type { DeclaredView } from '../prepare/view-declaration.js';
import { checkViewLinks } from '../prepare/view-links.js';
import { deepFreeze, digestOf } from '../shared/build/canonical-json.js';
import type { Problem } from '../shared/build/problems.js';
import { projectPath } from '../shared/build/project-path.js';

/** A tool as the views stage reads it: prepared, where its contract is, and the view it declares. */
export interface ViewedTool {
  readonly prepared: PreparedTool;
  readonly ref: ContractRef;
  readonly view?: DeclaredView;
}

export interface BuiltViews {
  /** The tools in the order given, each with its `view`; the same object when it has none. */
  readonly tools: readonly PreparedTool[];
  /** Every version kept, by name, the current one first. */
  readonly views: readonly EmittableView[];
  readonly files: readonly GeneratedFile[];
  /** Every local file the views were built from, relative to the root: a change to one rebuilds them. */
  readonly inputs: readonly string[];
  readonly problems: readonly Problem[];
  readonly warnings: readonly Problem[];
}

/**
 * Builds each declared view into one HTML document, proves its CSP from the bundle, checks the
 * links between tools and views, and keeps the last `views.keepVersions` versions of each
 * readable (read back from the committed manifest and files).
 */
export async function buildViews(
  root: string,
  config: ResolvedToolprepConfig,
  tools: readonly ViewedTool[],
): Promise<BuiltViews> {
  const problems: Problem[] = [];
  const warnings: Problem[] = [];
  const inputs = new Set<string>();
  const current = new Map<string, { view: EmittableView; html: string }>();
  const owners = tools.filter((tool) => tool.view?.kind === 'own');
  if (owners.length === 0 && !tools.some((tool) => tool.view))
    return {
      tools: tools.map((tool) => tool.prepared),
      views: [],
      files: [],
      inputs: [],
      problems,
      warnings,
    };
  for (const { prepared, ref, view } of owners) {
    if (view?.kind !== 'own') continue;
    const entry = path.resolve(root, path.dirname(ref.file), view.entry);
    const place = { tool: prepared.name, file: ref.file, line: ref.line };
    const built = await buildView(root, entry);
    if (!built.ok) {
      // Still watched: a change to one of them may be the fix, and must start a run.
      for (const input of built.inputs) inputs.add(input);
      for (const failure of built.failures)
        problems.push({
          severity: 'error',
          code: 'view-build-failed',
          tool: prepared.name,
          field: 'view.entry',
          file: failure.file ?? ref.file,
          ...(failure.line === undefined ? { line: ref.line } : { line: failure.line }),
          message: `the view could not be built: ${failure.message}`,
        });
      continue;
    }
    for (const input of built.view.inputs) inputs.add(input);
    const proof = proveViewCsp(prepared.name, built.view.pieces, view.csp);
    problems.push(...proof.problems);
    warnings.push(...proof.warnings);
    const { html } = built.view;
    const bytes = Buffer.byteLength(html);
    if (bytes > config.views.maxBytes)
      problems.push({
        severity: 'error',
        code: 'view-over-budget',
        ...place,
        field: 'view',
        message: `the built view is ${bytes} bytes, over views.maxBytes (${config.views.maxBytes})`,
        hint: 'hosts struggle with large documents: trim dependencies, load images from a declared origin, or raise views.maxBytes',
      });
    const host = {
      csp: view.csp,
      ...(view.permissions.length > 0
        ? { permissions: Object.fromEntries(view.permissions.map((permission) => [permission, {}])) }
        : {}),
      ...(view.prefersBorder === undefined ? {} : { prefersBorder: view.prefersBorder }),
    };
    const digest = viewDigest(html, host);
    const version: EmittableView = {
      name: prepared.name,
      uri: `ui://${prepared.name}/${digest}.html`,
      current: true,
      source: projectPath(root, entry),
      ...viewPaths(prepared.name, digest, config),
      digest,
      bytes,
      ...host,
    };
    current.set(prepared.name, { view: version, html });
  }
  problems.push(...checkViewLinks(tools, new Set(current.keys())));

  const kept = await keptVersions(root, config, current, warnings);
  const views = [...current.values()]
    .sort((a, b) => (a.view.name < b.view.name ? -1 : a.view.name > b.view.name ? 1 : 0))
    .flatMap(({ view, html }) => [{ view, html }, ...(kept.get(view.name) ?? [])]);
  const uriOf = (tool: ViewedTool): string | undefined => {
    if (!tool.view) return undefined;
    return current.get(tool.view.kind === 'own' ? tool.prepared.name : tool.view.of)?.view.uri;
  };
  return {
    tools: tools.map((tool) => {
      const resourceUri = uriOf(tool);
      if (!tool.view || resourceUri === undefined) return tool.prepared;
      const { digest: _digest, ...rest } = tool.prepared;
      const viewed = { ...rest, view: { resourceUri, visibility: tool.view.visibility } };
      return deepFreeze({ ...viewed, digest: digestOf(viewed) });
    }),
    views: views.map(({ view }) => view),
    files: views.flatMap(({ view, html }) => viewFiles(view, html)),
    inputs: [...inputs].sort(),
    problems,
    warnings,
  };
}

/**
 * The older versions of each current view still kept: those the committed manifest lists for it
 * (newest first), up to `views.keepVersions` in all with the current one. A kept version whose
 * files are gone is dropped with a warning: a host holding its URI can no longer read it.
 */
async function keptVersions(
  root: string,
  config: ResolvedToolprepConfig,
  current: ReadonlyMap<string, { view: EmittableView }>,
  warnings: Problem[],
): Promise<Map<string, { view: EmittableView; html: string }[]>> {
  const kept = new Map<string, { view: EmittableView; html: string }[]>();
  const room = config.views.keepVersions - 1;
  if (room <= 0 || current.size === 0) return kept;
  const committed = await readText(path.resolve(root, config.manifest));
  let previous: readonly ManifestView[] = [];
  try {
    previous = committed ? ((JSON.parse(committed) as Manifest).views ?? []) : [];
  } catch {
    // A manifest that does not parse keeps no versions; check reports it as stale.
  }
  for (const old of previous) {
    const now = current.get(old.name)?.view;
    const list = kept.get(old.name) ?? [];
    if (!now || old.digest === now.digest || list.length >= room) continue;
    const paths = viewPaths(old.name, old.digest, config);
    const html =
      (await readText(path.resolve(root, paths.file))) ??
      htmlOfViewModule((await readText(path.resolve(root, paths.module))) ?? '');
    if (html === undefined || viewDigest(html, old) !== old.digest) {
      warnings.push({
        severity: 'warning',
        code: 'view-link',
        tool: old.name,
        file: config.manifest,
        message: `the kept version ${old.uri} is no longer readable: its file ${paths.file} is gone or changed`,
        hint: 'a host that cached that URI gets an error; commit the views folder with the manifest',
      });
      continue;
    }
    const { file: _file, ...rest } = old;
    list.push({ view: { ...rest, ...paths, current: false }, html });
    kept.set(old.name, list);
  }
  return kept;
}

/**
 * A view version's digest, its URI's and its ETag: of the HTML and of what the host applies with
 * it (`_meta.ui`: the CSP, permissions and border), so that a change to either is a new version,
 * never the same URI and ETag answering otherwise (decision 0062).
 */
function viewDigest(
  html: string,
  { csp, permissions, prefersBorder }: Pick<ManifestView, 'csp' | 'permissions' | 'prefersBorder'>,
): string {
  return digestOf({ html, ui: { csp, permissions, prefersBorder } });
}
