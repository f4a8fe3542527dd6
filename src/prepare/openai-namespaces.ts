import { OPENAI_NAMESPACE_FUNCTIONS, openaiNamespaces } from '../manifest/deferral.js';
import type { PreparedTool } from '../manifest/prepared-tool.js';
import type { Problem } from '../shared/build/problems.js';

/**
 * The OpenAI Responses surfaces send a group's deferred tools as one `namespace`, and OpenAI
 * advises about 10 functions at most in one: a warning for each group past that, naming it and its
 * count. Only tools prepared for `openai-strict` count (no other surface makes namespaces). Run it
 * over the whole set once groups and loading are decided.
 */
export function namespaceSizeWarnings(tools: readonly PreparedTool[]): Problem[] {
  const sent = tools.filter((tool) => tool.profiles?.['openai-strict'] !== undefined);
  return [...openaiNamespaces(sent, (tool) => tool)]
    .filter(([, members]) => members.length > OPENAI_NAMESPACE_FUNCTIONS)
    .map(([group, members]) => ({
      severity: 'warning',
      code: 'namespace-size',
      profile: 'openai-strict',
      message: `group "${group}" has ${members.length} deferred tools, which OpenAI's Responses surfaces send as one namespace: past the ${OPENAI_NAMESPACE_FUNCTIONS} functions OpenAI advises for one`,
      hint: 'split the group into smaller ones (folders, or the config’s groups), or mark some of its tools eager',
    }));
}
