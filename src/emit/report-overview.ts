import type { Manifest, ManifestTool, Size } from '../manifest/manifest.js';
import { REPEATED_SHOWN, repeatedTexts } from './repeated-text.js';

/** The config's token budget, as the report page marks it. */
export interface ReportBudget {
  readonly tool?: number;
  readonly total?: number;
  readonly turnOne?: number | { readonly deferred?: number; readonly groups?: number };
}

export const html = (text: string): string =>
  text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
export const anchor = (name: string): string => `tool-${name.replace(/[^A-Za-z0-9_-]/g, '_')}`;

/**
 * What each client strategy is sent before the first message, against `budget.turnOne` (its
 * everything row against `budget.total`, which bounds the whole list).
 */
export function turnOneSection(manifest: Manifest, budget: ReportBudget): string {
  const { turnOne } = manifest.totals;
  const limits =
    typeof budget.turnOne === 'number'
      ? { deferred: budget.turnOne, groups: budget.turnOne }
      : (budget.turnOne ?? {});
  const deferred = manifest.tools.filter((tool) => tool.loading === 'deferred').length;
  const eager = `${manifest.tools.length - deferred} eager tools whole`;
  const row = (strategy: string, size: Size, made: string, limit: number | undefined): string => {
    const over = limit !== undefined && size.tokens > limit;
    const against = limit === undefined ? '' : ` (budget ${limit}${over ? ', over' : ''})`;
    return `<tr data-strategy="${strategy}" class="${over ? 'over' : ''}"><td>${strategy}</td><td class="tokens" data-tokens="${size.tokens}">${size.tokens}${against}</td><td>${made}</td></tr>`;
  };
  const rows = [
    row('everything', turnOne.everything, 'every <code>tools/list</code> entry whole', budget.total),
    row(
      'deferred',
      turnOne.deferred,
      `${eager}, ${deferred} deferred tools by name and description`,
      limits.deferred,
    ),
    ...(turnOne.groups
      ? [
          row(
            'groups',
            turnOne.groups,
            `${eager} and the <code>groups/list</code> answer (${manifest.groups?.length ?? 0} groups)`,
            limits.groups,
          ),
        ]
      : []),
  ];
  return `<section id="turn-one"><h2>Turn one</h2><p>What a client is sent before the first message, in tokens (o200k_base), by the way it takes the tools.</p><table class="strategies">${rows.join('')}</table></section>`;
}

/**
 * Tokens per tool as bars, under each group with its total (a project without groups: one list),
 * with a filter box and an order the page's script applies.
 */
export function tokensSection(manifest: Manifest, budget: ReportBudget): string {
  const tools = manifest.tools;
  const largest = Math.max(1, budget.tool ?? 0, ...tools.map((tool) => tool.size.tokens));
  const bar = (tool: ManifestTool): string => {
    const over = budget.tool !== undefined && tool.size.tokens > budget.tool;
    const searched = [tool.name, tool.description, ...(tool.groups ?? [])].join(' ').toLowerCase();
    const deferred = tool.loading === 'deferred' ? ' <span class="deferred">deferred</span>' : '';
    return `<tr class="tool${over ? ' over' : ''}" data-tool="${html(tool.name)}" data-tokens="${tool.size.tokens}" data-search="${html(searched)}"><td><a href="#${anchor(tool.name)}">${html(tool.name)}</a>${deferred}</td><td class="bar"><span style="width:${((tool.size.tokens / largest) * 100).toFixed(1)}%"></span></td><td class="tokens" data-tokens="${tool.size.tokens}">${tool.size.tokens}${over ? ` (over ${budget.tool})` : ''}</td></tr>`;
  };
  const groups = manifest.groups ?? [];
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const ungrouped = tools.filter((tool) => (tool.groups?.length ?? 0) === 0);
  const bodies =
    groups.length === 0
      ? [`<tbody data-group="" data-tokens="${manifest.totals.tokens}">${tools.map(bar).join('')}</tbody>`]
      : [
          ...groups.map((group) => {
            const members = group.tools.flatMap((name) => byName.get(name) ?? []);
            const described = group.description === undefined ? '' : ` — ${html(group.description)}`;
            return `<tbody data-group="${html(group.name)}" data-tokens="${group.size.tokens}"><tr class="group-head"><th colspan="3"><b>${html(group.name)}</b>${described} · ${members.length} tools · <span class="group-tokens" data-tokens="${group.size.tokens}">${group.size.tokens}</span> tokens</th></tr>${members.map(bar).join('')}</tbody>`;
          }),
          // Every tool is in a group; one that is not must still be seen.
          ...(ungrouped.length > 0
            ? [
                `<tbody data-group="" data-tokens="0"><tr class="group-head"><th colspan="3">in no group</th></tr>${ungrouped.map(bar).join('')}</tbody>`,
              ]
            : []),
        ];
  return `<section id="tokens"><h2>Tokens per tool${budget.tool === undefined ? '' : ` (budget ${budget.tool} each)`}</h2>
<p class="controls"><input id="filter" type="search" placeholder="filter by name, description or group" aria-label="filter the tools"> <label>order <select id="sort"><option value="name">by name</option><option value="size">largest first</option></select></label> <span id="shown">${tools.length} of ${tools.length} tools</span></p>
<table class="bars">${bodies.join('')}</table></section>`;
}

/** The text the tools' documents repeat, costliest first, with the tools it is in. */
export function repeatedSection(manifest: Manifest): string {
  const repeated = repeatedTexts(manifest.tools, REPEATED_SHOWN);
  if (repeated.length === 0) return '';
  const rows = repeated
    .map(
      (text) =>
        `<tr><td class="tokens" data-tokens="${text.tokens}">${text.tokens}</td><td>${text.occurrences}× in ${text.tools.length} tools, ${text.tokensEach} each</td><td>${html(text.keyword)}</td><td><code>${html(text.text)}</code><details><summary>the tools</summary>${text.tools.map((name) => `<a href="#${anchor(name)}">${html(name)}</a>`).join(', ')}</details></td></tr>`,
    )
    .join('');
  return `<section id="repeated"><h2>Repeated text</h2><p>Values the tools' documents hold more than once, and what they cost in all: a shared description, a format's pattern. Shorter, or said once in the server's instructions, they cost less on every turn.</p><table class="repeated"><tr><th>tokens</th><th>where</th><th>keyword</th><th>text</th></tr>${rows}</table></section>`;
}

/**
 * The page's script: the filter hides the tools (rows and sections) whose name, description and
 * groups do not hold every word typed; the order sorts the tools in each group, and the groups,
 * by name or largest first; following a link to a tool opens its section.
 */
export const OVERVIEW_SCRIPT = `<script>
// Its own scope: the live page's script beside it declares names of its own.
(() => {
const filter = document.getElementById('filter');
const order = document.getElementById('sort');
const shown = document.getElementById('shown');
const searchText = (element) => element.dataset.search ?? '';
function applyFilter() {
  const words = filter.value.toLowerCase().split(/\\s+/).filter(Boolean);
  const matches = (element) => words.every((word) => searchText(element).includes(word));
  const names = new Set();
  for (const row of document.querySelectorAll('#tokens tr.tool')) {
    row.hidden = !matches(row);
    if (!row.hidden) names.add(row.dataset.tool);
  }
  for (const body of document.querySelectorAll('#tokens tbody'))
    body.hidden = body.querySelector('tr.tool:not([hidden])') === null;
  for (const article of document.querySelectorAll('article.tool')) article.hidden = !names.has(article.dataset.tool);
  shown.textContent = names.size + ' of ' + document.querySelectorAll('article.tool').length + ' tools';
}
function applyOrder() {
  const bySize = order.value === 'size';
  const compare = (key) => (a, b) =>
    (bySize ? Number(b.dataset.tokens) - Number(a.dataset.tokens) : 0) ||
    (a.dataset[key] < b.dataset[key] ? -1 : a.dataset[key] > b.dataset[key] ? 1 : 0);
  const table = document.querySelector('#tokens table');
  const bodies = [...table.tBodies];
  for (const body of bodies) for (const row of [...body.querySelectorAll('tr.tool')].sort(compare('tool'))) body.append(row);
  for (const body of bodies.sort(compare('group'))) table.append(body);
}
function openTarget() {
  const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (target) for (const details of target.querySelectorAll('details.body')) details.open = true;
}
filter.addEventListener('input', applyFilter);
order.addEventListener('change', applyOrder);
addEventListener('hashchange', openTarget);
openTarget();
})();
</script>`;
