import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ResolvedToolprepConfig } from '../config/options.js';
import { reportPage } from '../emit/report-page.js';
import type { ReportPreviews } from '../emit/report-previews.js';
import { describeSurfaceChanges } from '../emit/surface-diff.js';
import type { Manifest } from '../manifest/manifest.js';
import type { HiddenConstraint } from './explain.js';

/** The manifest at `file` (the committed one), or undefined when there is none. */
function readManifest(file: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

export interface SurfaceReportInput {
  /** The manifest as generated. */
  readonly manifest: Manifest;
  readonly config: ResolvedToolprepConfig;
  /** What to show the changes since (`baselineOf`); none: no changes shown. */
  readonly baseline?: Baseline;
  /** The explain stage's findings (`context.explain()`). */
  readonly findings: readonly HiddenConstraint[];
  /** For a dev server: the page reloads when `versionUrl` answers another version. */
  readonly live?: { readonly versionUrl: string; readonly version: number };
  /** The views' previews (`viewPreviewsOf`); absent: none shown. */
  readonly previews?: ReportPreviews;
}

/**
 * The surface report (`inspect --html`, and Vite's dev server at `/__toolprep`): the generated
 * manifest with the config's budget, the changes since the committed one, the hidden
 * constraints the generator context's explain stage found, and the views' previews.
 */
export function surfaceReportPage({
  manifest,
  config,
  baseline,
  findings,
  live,
  previews,
}: SurfaceReportInput): string {
  return reportPage({
    manifest,
    ...(config.budget ? { budget: config.budget } : {}),
    ...(baseline
      ? { changes: { since: baseline.label, lines: describeSurfaceChanges(baseline.manifest, manifest) } }
      : {}),
    findings,
    ...(live ? { live } : {}),
    ...(previews ? { previews } : {}),
  });
}

/** The manifest a report shows the changes since, and the words that say which one it is. */
export interface Baseline {
  /** Absent when there is none: every tool is then new. */
  readonly manifest?: Manifest;
  /** Where it comes from: the last commit, the file on disk, or nowhere. */
  readonly from: 'head' | 'disk' | 'none';
  readonly label: string;
}

/**
 * What a report compares the generated surface with: the manifest committed at `HEAD` where the
 * project is in git and has committed it; otherwise the file on disk, saying so (after `generate`
 * it is the surface itself, so it shows no change); otherwise nothing.
 */
export function baselineOf(root: string, config: ResolvedToolprepConfig): Baseline {
  const inHead = manifestInHead(root, config);
  if (inHead)
    return { manifest: inHead, from: 'head', label: `the manifest committed at HEAD (${config.manifest})` };
  const onDisk = readManifest(path.join(root, config.manifest));
  if (onDisk)
    return {
      manifest: onDisk,
      from: 'disk',
      label: `${config.manifest} on disk (none is committed at HEAD)`,
    };
  return { from: 'none', label: 'nothing: no manifest is committed or on disk' };
}

/**
 * The manifest as the last commit has it (`git show HEAD:<manifest>`), for a dev server, which
 * rewrites the file itself; undefined outside a repository or before the manifest is committed.
 */
function manifestInHead(root: string, config: ResolvedToolprepConfig): Manifest | undefined {
  try {
    const text = execFileSync('git', ['show', `HEAD:./${config.manifest}`], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return JSON.parse(text) as Manifest;
  } catch {
    return undefined;
  }
}
