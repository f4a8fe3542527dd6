import { writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  createGeneratorContext,
  type GeneratorContext,
  type GeneratorContextOptions,
  type RunOutcome,
} from '../generate/context.js';
import { describeExplanation, describeOutcome } from '../generate/outcome.js';
import { type ListingOrder, surfaceListing } from '../generate/surface-listing.js';
import { describeAccess } from '../manifest/access-text.js';
import type { ManifestTool } from '../manifest/manifest.js';
import { describePlan } from '../manifest/plan-text.js';
import { plural } from '../shared/build/plural.js';
import { formatProblem } from '../shared/build/problems.js';
import { fieldRows } from '../shared/json-schema/schema-text.js';
import { type Output, printExplanation, printReport } from './output.js';

export interface CommandContext {
  readonly generateOptions: GeneratorContextOptions;
  readonly output: Output;
}

/**
 * One run of a generator context, reported; the status: 1 on problems or a stale surface. A
 * verbose check names every tool of a change they share and prints every tool's diff.
 */
async function runOnce(
  context: CommandContext,
  reason: 'generate' | 'check',
  verbose = false,
): Promise<{ readonly status: number; readonly generator: GeneratorContext; readonly outcome: RunOutcome }> {
  const generator = createGeneratorContext({
    ...context.generateOptions,
    check: reason === 'check',
    progress: context.output.quiet ? undefined : context.output.err,
  });
  const outcome = await generator.run();
  const described = describeOutcome(outcome, { reason });
  const report =
    verbose && described.stale && outcome.stale
      ? { ...described, stale: outcome.stale.verboseText }
      : described;
  printReport(context.output, report);
  return { status: report.problems.length > 0 || report.stale ? 1 : 0, generator, outcome };
}

export const runGenerate = async (context: CommandContext): Promise<number> =>
  (await runOnce(context, 'generate')).status;
/**
 * `check`, and with `explain` the rules each tool's parser enforces that its documents do not
 * show; `verbose`: every tool named and every diff printed.
 */
export async function runCheck(
  context: CommandContext,
  {
    explain,
    verbose = false,
  }: { readonly explain?: { readonly milliseconds?: number }; readonly verbose?: boolean },
): Promise<number> {
  const { status: generated, generator, outcome } = await runOnce(context, 'check', verbose);
  const status = Math.max(generated, await checkIntents(context.output, outcome));
  // A config that cannot be used generated nothing to explain.
  if (!explain || !outcome.generation) return status;
  const explanation = await generator.explain({ ...explain, prove: true });
  printExplanation(context.output, describeExplanation(explanation));
  return explanation.problems.length > 0 ? 1 : status;
}

/**
 * Ranks each tool's `intents` under each client's search (config `findability`): 1 when a tool
 * falls out of a ranker's top k for one of them. Near-duplicate search documents are warned about.
 */
async function checkIntents(output: Output, outcome: RunOutcome): Promise<number> {
  const manifest = outcome.generation?.manifest;
  if (!manifest || !outcome.config) return 0;
  const { checkFindability } = await import('../generate/findability/check.js');
  const { ranks, problems, warnings, rankers } = checkFindability(manifest.tools, outcome.config.findability);
  const intents = new Set(ranks.map((rank) => `${rank.tool}\u0000${rank.intent}`)).size;
  const summary =
    intents > 0
      ? `[toolprep] findability: ${plural(intents, 'intent')} ranked under ${rankers.map((ranker) => ranker.name).join(', ')}; ${problems.length === 0 ? 'every tool is in its top k' : `${plural(problems.length, 'ranking')} outside the top k`}`
      : undefined;
  printReport(output, {
    ...(summary ? { summary } : {}),
    warnings: warnings.map(formatProblem),
    problems: problems.map(formatProblem),
  });
  return problems.length > 0 ? 1 : 0;
}

export async function runInspect(
  context: CommandContext,
  name: string | undefined,
  { json, html, sort }: { readonly json: boolean; readonly html?: string; readonly sort: ListingOrder },
): Promise<number> {
  const generator = createGeneratorContext({ ...context.generateOptions, write: false });
  const outcome = await generator.run();
  const report = describeOutcome(outcome, { reason: 'inspect' });
  printReport(context.output, { ...report, summary: undefined });
  const manifest = outcome.generation?.manifest;
  if (!manifest) return 1;
  const { out, err } = context.output;
  if (html !== undefined && outcome.config) {
    const { baselineOf, surfaceReportPage } = await import('../generate/report.js');
    const { viewPreviewsOf } = await import('../generate/view-previews.js');
    const baseline = baselineOf(generator.root, outcome.config);
    const { findings } = await generator.explain();
    const { previews, summary } = await viewPreviewsOf(
      generator.root,
      manifest,
      outcome.generation?.files ?? [],
    );
    const file = path.resolve(html);
    writeFileSync(
      file,
      surfaceReportPage({
        manifest,
        config: outcome.config,
        baseline,
        findings,
        ...(previews ? { previews } : {}),
      }),
    );
    out(
      `[toolprep] inspect: wrote ${path.relative(process.cwd(), file) || file} (${manifest.tools.length} tools; changes since ${baseline.label})`,
    );
    if (summary) out(`[toolprep] inspect: ${summary}`);
    return 0;
  }
  const tools = name === undefined ? manifest.tools : manifest.tools.filter((tool) => tool.name === name);
  if (name !== undefined && tools.length === 0) {
    err(
      `[toolprep] no tool named "${name}"; the tools are: ${manifest.tools.map((tool) => tool.name).join(', ')}`,
    );
    return 1;
  }
  if (json) {
    out(JSON.stringify(name === undefined ? manifest : tools[0], null, 2));
    return 0;
  }
  if (name === undefined) {
    for (const line of surfaceListing(manifest, sort)) out(line);
    return 0;
  }
  for (const line of describeTool(tools[0] as ManifestTool, context.output)) out(line);
  return 0;
}

/** An icon in one line: its source (a `data:` URI cut short) and what it says of itself. */
function iconText({ src, mimeType, sizes, theme }: NonNullable<ManifestTool['icons']>[number]): string {
  const shown =
    src.startsWith('data:') && src.length > 48 ? `${src.slice(0, 40)}… (${src.length} chars)` : src;
  const notes = [mimeType, sizes?.join(' '), theme && `${theme} theme`].filter(Boolean);
  return notes.length > 0 ? `${shown} · ${notes.join(' · ')}` : shown;
}

function describeTool(tool: ManifestTool, { paint }: Output): string[] {
  const lines = [
    paint.bold(tool.name) + (tool.title === undefined ? '' : ` — ${tool.title}`),
    `  ${tool.description}`,
    ...(tool.icons ?? []).map((icon) => paint.dim(`  icon ${iconText(icon)}`)),
    paint.dim(
      `  ${tool.source} · ${tool.size.bytes} bytes · ${tool.size.tokens} tokens · digest ${tool.digest}`,
    ),
    ...Object.entries(tool.size.profiles ?? {}).map(([profile, size]) =>
      paint.dim(`  ${profile}: ${size.bytes} bytes · ${size.tokens} tokens`),
    ),
    ...(tool.access ? [`  access: ${describeAccess(tool.access)}`] : []),
    '',
    '  input',
  ];
  const walk = (schema: unknown): void => {
    for (const row of fieldRows(schema)) {
      const note = row.notes.length > 0 ? paint.dim(`  ${row.notes.join(' ')}`) : '';
      lines.push(`${'  '.repeat(row.depth + 2)}${row.key}${row.required ? '' : '?'}: ${row.type}${note}`);
    }
  };
  walk(tool.inputSchema.mcp);
  for (const [profile, document] of Object.entries(tool.profiles ?? {})) {
    const fallback = document.fallback
      ? paint.yellow(` → sent as ${document.fallback}, not strict: ${document.reason}`)
      : '';
    lines.push('', `  as ${profile}${fallback}`);
    walk(document.inputSchema);
  }
  for (const [profile, reason] of Object.entries(tool.excludedFrom ?? {}))
    lines.push('', `  as ${profile}${paint.yellow(` → left out: ${reason}`)}`);
  lines.push('', '  plan', ...describePlan(tool.plan).map((line) => `    ${line}`));
  return lines;
}
