import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createGeneratorContext, type GeneratorContextOptions } from '../generate/context.js';
import { explainProject, formatFinding } from '../generate/explain.js';
import { describeOutcome } from '../generate/outcome.js';
import { committedManifest, surfaceReport } from '../generate/report.js';
import type { ManifestTool } from '../manifest/manifest.js';
import { describePlan } from '../manifest/plan-text.js';
import { plural } from '../shared/build/plural.js';
import { formatProblem } from '../shared/build/problems.js';
import { fieldRows } from '../shared/json-schema/schema-text.js';
import { type Output, printReport } from './output.js';

export interface CommandContext {
  readonly generateOptions: GeneratorContextOptions;
  readonly output: Output;
}

/** One run of the generator context, reported; the exit code: 1 on problems or a stale surface. */
async function runOnce(context: CommandContext, reason: 'generate' | 'check'): Promise<number> {
  const generator = createGeneratorContext({
    ...context.generateOptions,
    check: reason === 'check',
    progress: context.output.quiet ? undefined : context.output.err,
  });
  const report = describeOutcome(await generator.run(), { reason });
  printReport(context.output, report);
  return report.problems.length > 0 || report.stale ? 1 : 0;
}

export const runGenerate = (context: CommandContext): Promise<number> => runOnce(context, 'generate');
/** `check`, and with `explain` the rules each tool's parser enforces that its documents do not show. */
export async function runCheck(
  context: CommandContext,
  explain?: { readonly milliseconds?: number },
): Promise<number> {
  const status = await runOnce(context, 'check');
  if (!explain) return status;
  const explanation = await explainProject({ ...context.generateOptions, ...explain });
  const { out, err } = context.output;
  for (const problem of explanation.problems) err(formatProblem(problem));
  for (const finding of explanation.findings) out(formatFinding(finding));
  const count = explanation.findings.length;
  const violations = explanation.problems.filter((problem) => problem.code === 'superset-violated').length;
  const superset =
    violations > 0
      ? `${violations} ${violations === 1 ? 'document refuses' : 'documents refuse'} values the contracts accept`
      : explanation.proven === 0
        ? 'no value the contracts accept was tried'
        : `every document takes the ${explanation.proven} values the contracts accept`;
  const outOfTime =
    explanation.outOfTime.length === 0
      ? ''
      : `; out of time before every value was tried: ${explanation.outOfTime.join(', ')}`;
  out(
    `[toolprep] explain: ${plural(count, 'hidden constraint')} in ${plural(explanation.tools, 'tool')} (${explanation.samples} documented values parsed); ${superset}${outOfTime}; in ${Math.round(explanation.milliseconds)} ms`,
  );
  return explanation.problems.length > 0 ? 1 : status;
}

export async function runInspect(
  context: CommandContext,
  name: string | undefined,
  json: boolean,
  html?: string,
): Promise<number> {
  const outcome = await createGeneratorContext({ ...context.generateOptions, write: false }).run();
  const report = describeOutcome(outcome, { reason: 'inspect' });
  printReport(context.output, { ...report, summary: undefined });
  const manifest = outcome.generation?.manifest;
  if (!manifest) return 1;
  const { out, err } = context.output;
  if (html !== undefined && outcome.config) {
    const root = path.resolve(context.generateOptions.root ?? '.');
    const committed = committedManifest(root, outcome.config);
    const file = path.resolve(html);
    writeFileSync(file, await surfaceReport(context.generateOptions, manifest, outcome.config, committed));
    out(
      `[toolprep] inspect: wrote ${path.relative(process.cwd(), file) || file} (${manifest.tools.length} tools)`,
    );
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
    for (const tool of tools)
      out(`${tool.name.padEnd(28)} ${String(tool.size.tokens).padStart(6)} tokens  ${tool.source}`);
    out(`${'total'.padEnd(28)} ${String(manifest.totals.tokens).padStart(6)} tokens  ${tools.length} tools`);
    for (const [profile, size] of Object.entries(manifest.totals.profiles ?? {}))
      out(`${`  as ${profile}`.padEnd(28)} ${String(size.tokens).padStart(6)} tokens`);
    return 0;
  }
  for (const line of describeTool(tools[0] as ManifestTool, context.output)) out(line);
  return 0;
}

function describeTool(tool: ManifestTool, { paint }: Output): string[] {
  const lines = [
    paint.bold(tool.name),
    `  ${tool.description}`,
    paint.dim(
      `  ${tool.source} · ${tool.size.bytes} bytes · ${tool.size.tokens} tokens · digest ${tool.digest}`,
    ),
    ...Object.entries(tool.size.profiles ?? {}).map(([profile, size]) =>
      paint.dim(`  ${profile}: ${size.bytes} bytes · ${size.tokens} tokens`),
    ),
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
    lines.push('', `  as ${profile}`);
    walk(document.inputSchema);
  }
  lines.push('', '  plan', ...describePlan(tool.plan).map((line) => `    ${line}`));
  return lines;
}
