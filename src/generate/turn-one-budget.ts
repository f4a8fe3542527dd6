import type { ResolvedToolprepConfig } from '../config/options.js';
import {
  type Measure,
  type SizedTool,
  type TurnOneStrategy,
  turnOneShare,
  turnOneSizes,
} from '../emit/turn-one.js';
import type { ToolGroup } from '../manifest/tool-set.js';
import type { Problem } from '../shared/build/problems.js';

type TurnOneBudget = NonNullable<NonNullable<ResolvedToolprepConfig['budget']>['turnOne']>;

/** How each strategy's first turn is made, for a message that names it. */
const STRATEGY_WORDS: Record<Exclude<TurnOneStrategy, 'everything'>, string> = {
  deferred: "eager tools whole, deferred tools' names and descriptions",
  groups: 'eager tools whole and the groups/list answer',
};

/** The names shown of the tools that break a budget; the rest are counted. */
const NAMED = 10;

/**
 * `budget.turnOne`: what a client that defers tools, or takes groups, is sent before the first
 * message, over its budget. A number bounds both strategies (groups only when the project has
 * groups). Each overrun names the tools with the largest shares, as many as would have to go for
 * the rest to fit: the eager tools to defer, or the descriptions to shorten. `measure` sizes what
 * the tools' sizes do not hold (`turnOneShown`).
 */
export function turnOneOverruns(
  tools: readonly SizedTool[],
  groups: readonly ToolGroup[] | undefined,
  budget: TurnOneBudget,
  measure?: Measure,
): Problem[] {
  const limits = typeof budget === 'number' ? { deferred: budget, groups: budget } : budget;
  const sizes = turnOneSizes(tools, groups, measure);
  const problems: Problem[] = [];
  if (typeof budget !== 'number' && budget.groups !== undefined && sizes.groups === undefined)
    problems.push({
      severity: 'error',
      code: 'over-budget',
      message: `budget.turnOne.groups is ${budget.groups}, but the project has no groups to take`,
      hint: 'put the tools in folders under their group (src/tools/<group>/), or remove budget.turnOne.groups',
    });
  for (const strategy of ['deferred', 'groups'] as const) {
    const limit = limits[strategy];
    const spent = sizes[strategy]?.tokens;
    if (limit === undefined || spent === undefined || spent <= limit) continue;
    const shares = tools
      .map((tool) => ({ tool, tokens: turnOneShare(tool, strategy, measure).tokens }))
      .filter(({ tokens }) => tokens > 0)
      .sort((a, b) => b.tokens - a.tokens || (a.tool.prepared.name < b.tool.prepared.name ? -1 : 1));
    const breaking: string[] = [];
    let left = spent;
    for (const { tool, tokens } of shares) {
      if (left <= limit) break;
      left -= tokens;
      breaking.push(`${tool.prepared.name} ${tokens} (${tool.prepared.loading ?? 'eager'})`);
    }
    const more = breaking.length > NAMED ? `, and ${breaking.length - NAMED} more` : '';
    const rest =
      left > limit
        ? `${breaking.length > 0 ? '; without them' : ''} the groups/list answer alone is ${left}`
        : '';
    const named =
      breaking.length > 0
        ? ` the tools that break it, largest first: ${breaking.slice(0, NAMED).join(', ')}${more}`
        : '';
    problems.push({
      severity: 'error',
      code: 'over-budget',
      message: `turn one under the ${strategy} strategy (${STRATEGY_WORDS[strategy]}) is ${spent} tokens, over budget.turnOne ${limit};${named}${rest}`,
      hint: "defer the largest eager tools (the contract's loading: 'deferred', or the config's loading), shorten their descriptions, or raise budget.turnOne",
    });
  }
  return problems;
}
