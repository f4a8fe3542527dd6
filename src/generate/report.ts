import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ResolvedToolprepConfig } from '../config/options.js';
import { reportPage } from '../emit/report-page.js';
import { describeSurfaceChanges } from '../emit/surface-diff.js';
import type { Manifest } from '../manifest/manifest.js';
import { explainProject } from './explain.js';
import type { ProjectOptions } from './project.js';

/** The manifest at `file` (the committed one), or undefined when there is none. */
export function readManifest(file: string): Manifest | undefined {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
  } catch {
    return undefined;
  }
}

/**
 * The surface report (`inspect --html`, and Vite's dev server at `/__toolprep`): the generated
 * manifest with the config's budget, the changes since `committed`, and the hidden constraints an
 * explain pass finds.
 */
export async function surfaceReport(
  project: ProjectOptions,
  manifest: Manifest,
  config: ResolvedToolprepConfig,
  committed: Manifest | undefined,
  live?: { readonly versionUrl: string; readonly version: number },
): Promise<string> {
  const { findings } = await explainProject(project);
  return reportPage({
    manifest,
    ...(config.budget ? { budget: config.budget } : {}),
    ...(committed ? { changes: describeSurfaceChanges(committed, manifest) } : {}),
    findings,
    ...(live ? { live } : {}),
  });
}

/** The committed manifest of a project: the file its config names, under its root. */
export function committedManifest(root: string, config: ResolvedToolprepConfig): Manifest | undefined {
  return readManifest(path.join(root, config.manifest));
}

/**
 * The manifest as the last commit has it (`git show HEAD:<manifest>`), for a dev server, which
 * rewrites the file itself; undefined outside a repository or before the manifest is committed.
 */
export function manifestInHead(root: string, config: ResolvedToolprepConfig): Manifest | undefined {
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
