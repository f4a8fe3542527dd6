import type { Plan, PlanNode } from './plan.js';

/**
 * A tool's plan in words, one line per position that does something:
 * `paths: a list written as text is refused; an array sent as JSON text is parsed`.
 */
export function describePlan(plan: Plan): string[] {
  const lines: string[] = [];
  // A `nullAbsent` or `fold` position runs on every call when the plan lists it, else under a profile.
  const when = (repair: 'nullAbsent' | 'caseFold', profile: string) =>
    plan.repairs?.includes(repair) ? '' : `under ${profile}, `;
  // `sameParse`: a union's member at the union's own position, whose parse the union states.
  const walk = (node: PlanNode, at: string, sameParse?: readonly string[]): void => {
    const here = at === '' ? 'the arguments' : at;
    const says: string[] = [];
    if (node.refuse) says.push('a list written as text is refused');
    if (node.parse && node.parse.join() !== sameParse?.join())
      says.push(
        `${node.parse.map((kind) => (kind === 'array' ? 'an array' : 'an object')).join(' or ')} sent as JSON text is parsed`,
      );
    if (node.scalar)
      says.push(
        `${node.scalar.map((kind) => (kind === 'number' ? 'a number' : 'true or false')).join(' or ')} sent as text is taken as ${node.scalar.length > 1 ? 'that value' : node.scalar[0] === 'number' ? 'that number' : 'that boolean'}`,
      );
    if (node.lone) says.push('one value sent alone is taken as a one-item list');
    if (node.fold)
      says.push(`${when('caseFold', 'anthropic-strict')}a value in another case takes its member’s case`);
    if (node.ref) says.push(`as ${node.ref} (below)`);
    if (says.length > 0) lines.push(`${here}: ${says.join('; ')}`);
    const prefix = at === '' ? '' : `${at}.`;
    for (const key of node.nullAbsent ?? [])
      lines.push(`${prefix}${key}: ${when('nullAbsent', 'a profile')}null is taken as left out`);
    if (node.nullAbsentBeyond)
      lines.push(
        `${here}: ${when('nullAbsent', 'a profile')}null under an undeclared key is taken as left out`,
      );
    for (const [key, field] of Object.entries(node.fields ?? {})) walk(field, `${prefix}${key}`);
    if (node.rest) walk(node.rest, `${at}{}`);
    node.tuple?.forEach((item, index) => {
      if (item) walk(item, `${at}[${index}]`);
    });
    if (node.items) walk(node.items, `${at}[]`);
    const member = (label: string) => `${here} ${label}`;
    for (const variant of node.variants ?? [])
      walk(
        variant.node,
        member(`when ${node.tag} = ${variant.tags.map((tag) => JSON.stringify(tag)).join(' | ')}`),
        node.parse,
      );
    if (node.object) walk(node.object, member('as an object'), node.parse);
    if (node.array) walk(node.array, member('as a list'));
    for (const side of node.all ?? []) walk(side, at, node.parse);
  };
  walk(plan.root, '');
  for (const [name, definition] of Object.entries(plan.defs ?? {})) walk(definition, name);
  return lines.length > 0 ? lines : ['nothing to repair or refuse: the arguments go to the parser as sent'];
}
