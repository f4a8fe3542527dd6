import type { ResolvedToolprepConfig } from '../config/options.js';
import type { GeneratedFile } from '../emit/write-files.js';
import type { Manifest } from '../manifest/manifest.js';
import { describeError } from '../shared/build/problems.js';
import type { GeneratorContext, RunOutcome } from './context.js';
import { baselineOf, surfaceReportPage } from './report.js';
import { viewPreviewsOf } from './view-previews.js';

/** Where a dev server serves the surface report. */
export const REPORT_PATH = '/__toolprep';

/** What a request under `REPORT_PATH` is answered: a dev server's middleware only sends it. */
interface ReportAnswer {
  readonly status: number;
  readonly contentType: string;
  readonly body: string;
}

export interface ReportServer {
  /** Takes a run's outcome: a run that generated a surface makes the next version of the page. */
  publish(outcome: RunOutcome): void;
  /** The answer to a request for `url`, relative to `REPORT_PATH`: `/` the page, `/version` its version. */
  answer(url: string | undefined): Promise<ReportAnswer>;
}

/** The last surface generated; its version counts regenerations, for the page to reload. */
interface Shown {
  readonly manifest: Manifest;
  readonly config: ResolvedToolprepConfig;
  /** The generation's files: the views' HTML is among them. */
  readonly files: readonly GeneratedFile[];
  readonly version: number;
}

/**
 * The live surface report of a dev server: the page of the last surface generated, compared with
 * the manifest of the last commit (the dev server rewrites the file itself), made once per version.
 */
export function createReportServer(generator: GeneratorContext): ReportServer {
  let shown: Shown | undefined;
  let page: { version: number; text: Promise<string> } | undefined;
  /** The page of one surface, with the findings of the generation the dev server already made. */
  const renderPage = async ({ manifest, config, files, version }: Shown): Promise<string> => {
    const live = { versionUrl: `${REPORT_PATH}/version`, version };
    const { findings } = await generator.explain();
    // The dev server rewrites the file on disk itself: only a commit is something to compare with.
    const baseline = baselineOf(generator.root, config);
    const { previews } = await viewPreviewsOf(generator.root, manifest, files);
    return surfaceReportPage({
      manifest,
      config,
      ...(baseline.from === 'disk' ? {} : { baseline }),
      findings,
      live,
      ...(previews ? { previews } : {}),
    });
  };
  return {
    publish(outcome) {
      if (outcome.generation?.manifest && outcome.config)
        shown = {
          manifest: outcome.generation.manifest,
          config: outcome.config,
          files: outcome.generation.files,
          version: (shown?.version ?? 0) + 1,
        };
    },
    async answer(url) {
      const current = shown;
      if (url?.startsWith('/version')) return text(200, String(current?.version ?? 0));
      if (!current) return text(503, 'toolprep has not generated the tools yet');
      if (page?.version !== current.version) page = { version: current.version, text: renderPage(current) };
      try {
        return { status: 200, contentType: 'text/html; charset=utf-8', body: await page.text };
      } catch (error) {
        return text(500, describeError(error));
      }
    },
  };
}

function text(status: number, body: string): ReportAnswer {
  return { status, contentType: 'text/plain; charset=utf-8', body };
}
