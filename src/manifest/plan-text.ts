import { type Plan, type PlanNode, planChildren } from './plan.js';

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
    const member = (label: string) => `${here} ${label}`;
    for (const { step, child } of planChildren(node))
      switch (step.kind) {
        case 'field':
          walk(child, `${prefix}${step.key}`);
          break;
        case 'rest':
          walk(child, `${at}{}`);
          break;
        case 'tuple':
          walk(child, `${at}[${step.index}]`);
          break;
        case 'items':
          walk(child, `${at}[]`);
          break;
        case 'variant':
          walk(
            child,
            member(`when ${node.tag} = ${step.tags.map((tag) => JSON.stringify(tag)).join(' | ')}`),
            node.parse,
          );
          break;
        case 'object':
          walk(child, member('as an object'), node.parse);
          break;
        case 'array':
          walk(child, member('as a list'));
          break;
        case 'side':
          walk(child, at, node.parse);
      }
  };
  walk(plan.root, '');
  for (const [name, definition] of Object.entries(plan.defs ?? {})) walk(definition, name);
  return lines.length > 0 ? lines : ['nothing to repair or refuse: the arguments go to the parser as sent'];
}
