import type { ToolAccess } from './prepared-tool.js';

/** Who may call a tool, in words, as `inspect` and the report page show it. */
export function describeAccess(access: ToolAccess): string {
  if (access.public) return 'public: callers without a token too';
  if (access.scopes) return `needs scopes ${access.scopes.join(' ')}`;
  return 'every authenticated caller';
}
