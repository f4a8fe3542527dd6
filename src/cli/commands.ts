import { writeChangedFiles } from '../emit/write-files.js';
import { compareWithDisk } from '../generate/check.js';
import { type GenerateOptions, type GenerateResult, generate } from '../generate/generate.js';
import type { ManifestTool } from '../manifest/manifest.js';
import { type Output, reportProblems } from './output.js';

export interface CommandContext {
  readonly generateOptions: GenerateOptions;
  readonly root: string;
  readonly output: Output;
}

async function generateOrReport(context: CommandContext): Promise<GenerateResult | undefined> {
  const result = await generate({
    ...context.generateOptions,
    progress: context.output.quiet ? undefined : context.output.err,
  });
  reportProblems(context.output, result.problems, result.warnings);
  return result.problems.length > 0 ? undefined : result;
}

export function summary(result: GenerateResult): string {
  const { scanned, tools, fromCache, milliseconds } = result.stats;
  const cached = fromCache > 0 ? ` (${fromCache} file${fromCache === 1 ? '' : 's'} from cache)` : '';
  return `${scanned} file${scanned === 1 ? '' : 's'} scanned, ${tools} tool${tools === 1 ? '' : 's'} found${cached} in ${Math.round(milliseconds)} ms`;
}

export async function runGenerate(context: CommandContext): Promise<number> {
  const result = await generateOrReport(context);
  if (!result) return 1;
  const written = await writeChangedFiles(context.root, result.files);
  if (!context.output.quiet) {
    const what = written.length > 0 ? `wrote ${written.join(', ')}` : 'everything was up to date';
    context.output.out(`toolprep: ${summary(result)}; ${what}`);
  }
  return 0;
}

export async function runCheck(context: CommandContext): Promise<number> {
  const result = await generateOrReport(context);
  if (!result) return 1;
  const report = await compareWithDisk(context.root, result);
  if (report.stale.length === 0) {
    if (!context.output.quiet)
      context.output.out(`toolprep: the committed tool surface is current (${summary(result)})`);
    return 0;
  }
  const [headline, ...rest] = report.text.split('\n');
  context.output.out([context.output.paint.red(headline ?? ''), ...rest].join('\n'));
  return 1;
}

export async function runInspect(
  context: CommandContext,
  name: string | undefined,
  json: boolean,
): Promise<number> {
  const result = await generateOrReport(context);
  if (!result?.manifest) return 1;
  const { out, err } = context.output;
  const tools =
    name === undefined ? result.manifest.tools : result.manifest.tools.filter((tool) => tool.name === name);
  if (name !== undefined && tools.length === 0) {
    err(
      `[toolprep] no tool named "${name}"; the tools are: ${result.manifest.tools.map((tool) => tool.name).join(', ')}`,
    );
    return 1;
  }
  if (json) {
    out(JSON.stringify(name === undefined ? result.manifest : tools[0], null, 2));
    return 0;
  }
  if (name === undefined) {
    for (const tool of tools)
      out(`${tool.name.padEnd(28)} ${String(tool.size.tokens).padStart(6)} tokens  ${tool.source}`);
    out(
      `${'total'.padEnd(28)} ${String(result.manifest.totals.tokens).padStart(6)} tokens  ${tools.length} tools`,
    );
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
      `  ${tool.source} · ${tool.size.bytes} bytes · ~${tool.size.tokens} tokens · digest ${tool.digest}`,
    ),
    '',
    '  input',
  ];
  const walk = (schema: Record<string, unknown>, depth: number): void => {
    const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
    const required = new Set((schema.required ?? []) as string[]);
    for (const [key, field] of Object.entries(properties)) {
      const kind = Array.isArray(field.type)
        ? field.type.join(' | ')
        : String(field.type ?? (field.$ref ? 'ref' : field.anyOf ? 'union' : 'any'));
      const note = typeof field.description === 'string' ? paint.dim(`  ${field.description}`) : '';
      lines.push(`${'  '.repeat(depth + 2)}${key}${required.has(key) ? '' : '?'}: ${kind}${note}`);
      if (field.type === 'object') walk(field, depth + 1);
      const items = field.items as Record<string, unknown> | undefined;
      if (items && typeof items === 'object' && items.type === 'object') walk(items, depth + 1);
    }
  };
  walk(tool.inputSchema.mcp as Record<string, unknown>, 0);
  lines.push(
    '',
    '  plan',
    ...JSON.stringify(tool.plan, null, 2)
      .split('\n')
      .map((line) => `    ${line}`),
  );
  return lines;
}
