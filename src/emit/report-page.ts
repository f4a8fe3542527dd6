import { describeAccess } from '../manifest/access-text.js';
import type { Manifest, ManifestTool } from '../manifest/manifest.js';
import { describePlan } from '../manifest/plan-text.js';
import { fieldRows } from '../shared/json-schema/schema-text.js';
import {
  anchor,
  html,
  OVERVIEW_SCRIPT,
  type ReportBudget,
  repeatedSection,
  tokensSection,
  turnOneSection,
} from './report-overview.js';
import { previewsScript, type ReportPreviews, viewPreview } from './report-previews.js';

/** A rule a tool's parser enforces that its documents do not show (`check --explain`). */
interface ReportFinding {
  readonly tool: string;
  readonly field: string;
  readonly counterexample: unknown;
  readonly message: string;
  readonly described: boolean;
}

export interface ReportInput {
  readonly manifest: Manifest;
  /** The config's token budget: each tool's bar is drawn against it, and an overrun marked. */
  readonly budget?: ReportBudget;
  /**
   * What changed (`describeSurfaceChanges`) since the manifest `since` names (`the manifest
   * committed at HEAD`); none to compare: absent.
   */
  readonly changes?: { readonly since: string; readonly lines: readonly string[] };
  readonly findings?: readonly ReportFinding[];
  /** A page a dev server serves: it reloads when `versionUrl` answers another version. */
  readonly live?: { readonly versionUrl: string; readonly version: number };
  /** The views to preview in their tools' sections, with the bridge and the samples. */
  readonly previews?: ReportPreviews;
}

/**
 * Up to this many tools, each tool's section is open, and the changes listed; past it, a link to a
 * tool opens its section, and the changes are one click away.
 */
const OPEN_SECTIONS = 20;

/**
 * The tool surface as one self-contained page (no network when it is viewed): what each client
 * strategy is sent on the first turn, a bar of tokens per tool against the budget under each group
 * (filtered and ordered by the page's script), the text the tools repeat, the changes since the
 * committed manifest, and every tool as a model sees it, under MCP and each profile, with the plan
 * in words and the hidden constraints.
 */
export function reportPage(input: ReportInput): string {
  const { manifest, budget = {}, changes, findings = [] } = input;
  const tools = manifest.tools;
  const overTotal = budget.total !== undefined && manifest.totals.tokens > budget.total;
  const profileTotals = Object.entries(manifest.totals.profiles ?? {})
    .map(([profile, size]) => `<li>as ${html(profile)}: <b>${size.tokens}</b> tokens</li>`)
    .join('');
  const open = tools.length <= OPEN_SECTIONS;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>toolprep: ${tools.length} tools, ${manifest.totals.tokens} tokens</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>Tool surface</h1>
<p id="totals"><b data-total-tokens="${manifest.totals.tokens}">${manifest.totals.tokens}</b> tokens (o200k_base) in <b>${tools.length}</b> tools, ${manifest.totals.bytes} bytes as <code>tools/list</code> sends them${budget.total === undefined ? '' : `; budget ${budget.total}${overTotal ? ' <strong class="over">over budget</strong>' : ''}`}</p>
${profileTotals ? `<ul class="profiles">${profileTotals}</ul>` : ''}
</header>
${turnOneSection(manifest, budget)}
${changesSection(changes)}
${tokensSection(manifest, budget)}
${repeatedSection(manifest)}
${findingsSection(findings)}
<main>${tools
    .map((tool) =>
      toolSection(
        tool,
        findings.filter((finding) => finding.tool === tool.name),
        open,
        viewPreview(tool, input.previews),
      ),
    )
    .join('\n')}</main>
${OVERVIEW_SCRIPT}
${previewsScript(input.previews)}
${input.live ? liveScript(input.live) : ''}
</body>
</html>
`;
}

function changesSection(changes: ReportInput['changes']): string {
  if (changes === undefined) return '';
  const since = `<p class="since">Compared with ${html(changes.since)}.</p>`;
  if (changes.lines.length === 0)
    return `<section id="changes"><h2>Changes</h2>${since}<p>None: the surface is that manifest’s.</p></section>`;
  // A line that names a tool opens its group; the indented ones under it are its changes.
  const groups: { head: string; tool?: string; lines: string[] }[] = [];
  for (const line of changes.lines) {
    if (line.startsWith(' ')) groups.at(-1)?.lines.push(line.trim());
    else
      groups.push({
        head: line,
        tool: /tool (\S+)(?: added| removed|$| renamed to (\S+))/.exec(line)?.slice(1).filter(Boolean).at(-1),
        lines: [],
      });
  }
  const items = groups
    .map(({ head, tool, lines }) => {
      const title =
        tool && !head.includes(' removed') ? `<a href="#${anchor(tool)}">${html(head)}</a>` : html(head);
      const inner =
        lines.length > 0 ? `<ul>${lines.map((line) => `<li>${html(line)}</li>`).join('')}</ul>` : '';
      return `<li class="${head.includes('renamed') ? 'breaking' : ''}">${title}${inner}</li>`;
    })
    .join('');
  const list =
    groups.length > OPEN_SECTIONS
      ? `<details><summary>${groups.length} changes</summary><ul>${items}</ul></details>`
      : `<ul>${items}</ul>`;
  return `<section id="changes"><h2>Changes</h2>${since}${list}</section>`;
}

function findingsSection(findings: readonly ReportFinding[]): string {
  if (findings.length === 0) return '';
  const items = findings
    .map(
      (finding) =>
        `<li${finding.described ? ' class="info"' : ''}><a href="#${anchor(finding.tool)}">${html(finding.tool)}</a> <code>${html(finding.field)}</code>: ${findingText(finding)}</li>`,
    )
    .join('');
  return `<section id="hidden"><h2>Hidden constraints (${findings.length})</h2><p>Rules a tool's parser enforces that its documents do not show: a model cannot know them. Describe each in the field's description, or express it in the schema.</p><ul>${items}</ul></section>`;
}

function findingText(finding: ReportFinding): string {
  return `the document allows <code>${html(JSON.stringify(finding.counterexample))}</code>, which the parser refuses: ${html(finding.message)}`;
}

function fieldsTable(document: unknown): string {
  const rows = fieldRows(document)
    .map(
      (row) =>
        `<tr><td style="padding-left:${0.5 + row.depth * 1.5}em"><code>${html(row.key)}${row.required ? '' : '?'}</code></td><td><code>${html(row.type)}</code></td><td>${html(row.notes.join(' '))}</td></tr>`,
    )
    .join('');
  return rows
    ? `<table class="fields"><tr><th>field</th><th>type</th><th>notes</th></tr>${rows}</table>`
    : '<p>No fields.</p>';
}

function toolSection(
  tool: ManifestTool,
  findings: readonly ReportFinding[],
  open: boolean,
  preview: string,
): string {
  const profiles = Object.entries(tool.profiles ?? {});
  const sizes = [
    `${tool.size.tokens} tokens`,
    `${tool.size.bytes} bytes`,
    ...Object.entries(tool.size.profiles ?? {}).map(([profile, size]) => `${profile} ${size.tokens} tokens`),
  ];
  const plan = describePlan(tool.plan);
  return `<article class="tool" id="${anchor(tool.name)}" data-tool="${html(tool.name)}" data-tokens="${tool.size.tokens}">
<h2>${html(tool.name)}</h2>
<p class="description">${html(tool.description)}</p>
<p class="meta"><code>${html(tool.source)}</code> · ${sizes.map(html).join(' · ')}${tool.groups ? ` · in ${tool.groups.map(html).join(', ')}` : ''}${tool.loading === 'deferred' ? ' · deferred' : ''}${tool.access ? ` · ${html(describeAccess(tool.access))}` : ''}</p>
${preview}
<details class="body"${open ? ' open' : ''}><summary>the tool as a model sees it, its plan and its documents</summary>
<h3>As a model sees it</h3>
${fieldsTable(tool.inputSchema.mcp)}
${profiles.map(([profile, document]) => `<details><summary>as ${html(profile)}${document.fallback ? ` <span class="fallback">sent as ${html(document.fallback)}, not strict: ${html(document.reason ?? '')}</span>` : ''}</summary>${fieldsTable(document.inputSchema)}</details>`).join('\n')}
${Object.entries(tool.excludedFrom ?? {})
  .map(([profile, reason]) => `<p class="excluded">Left out of ${html(profile)}: ${html(reason)}</p>`)
  .join('\n')}
<h3>The plan</h3>
${plan.length > 0 ? `<ul class="plan">${plan.map((line) => `<li>${html(line)}</li>`).join('')}</ul>` : '<p>Nothing to repair: the arguments go to the parser as they are.</p>'}
${findings.length > 0 ? `<h3>Hidden constraints</h3><ul class="findings">${findings.map((finding) => `<li><code>${html(finding.field)}</code>: ${findingText(finding)}</li>`).join('')}</ul>` : ''}
<details><summary>the documents as JSON</summary>${[['mcp', tool.inputSchema.mcp], ['agent', tool.inputSchema.agent], ...profiles.map(([profile, document]) => [profile, document.inputSchema] as const), ...(tool.outputSchema ? [['output', tool.outputSchema] as const] : [])].map(([name, document]) => `<h4>${html(String(name))}</h4><pre>${html(JSON.stringify(document, null, 2))}</pre>`).join('')}</details>
</details>
</article>`;
}

function liveScript({ versionUrl, version }: { versionUrl: string; version: number }): string {
  return `<script>
const shown = ${version};
setInterval(async () => {
  try {
    const now = await (await fetch(${JSON.stringify(versionUrl)})).text();
    if (Number(now) !== shown) location.reload();
  } catch {}
}, 500);
</script>`;
}

const STYLE = `
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:72em;padding:1em 2em;color:#222}
h1{margin-bottom:0}h2{border-bottom:1px solid #ddd;padding-bottom:.2em}
.fallback,.excluded{color:#8a4b00}
code,pre{font-family:ui-monospace,monospace;font-size:13px}pre{background:#f6f6f6;padding:.8em;overflow:auto}
table{border-collapse:collapse}td,th{padding:.2em .6em;text-align:left;vertical-align:top}
[hidden]{display:none!important}
.bars{width:100%}.bars td:first-child{width:16em}.bar span{display:block;height:.9em;background:#4a7bd0;min-width:1px}
.bars .tokens,.strategies .tokens,.repeated .tokens{width:10em;text-align:right}.over .bar span{background:#d0584a}.over,.breaking{color:#b3261e}
.group-head th{padding-top:.8em;border-bottom:1px solid #ddd;font-weight:normal}.deferred{color:#666;font-size:85%}
.controls input{width:24em;padding:.2em .4em}.repeated code{word-break:break-all}.repeated td{border-top:1px solid #eee}
.fields tr:nth-child(even){background:#fafafa}.fields th{border-bottom:1px solid #ddd}
.tool{border-top:3px solid #eee;margin-top:1.2em}.tool h2{margin:.3em 0 .1em}.tool>p{margin:.2em 0}.meta{color:#666}.info{color:#666}
details{margin:.4em 0}summary{cursor:pointer;color:#2a55a0}
.preview iframe{display:block;width:100%;height:240px;border:none;background:#fff}.preview iframe.bordered{border:1px solid #999}
.preview-log{font-size:13px;color:#444}.preview-log .call{color:#1f6b2f}.preview-log .refused,.preview-log .csp{color:#8a4b00}
`;
