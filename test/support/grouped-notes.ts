import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import { createToolRuntime, type PreparedToolSet, type ToolRuntime } from 'toolprep/runtime';
import { z } from 'zod';
import { noteContracts } from './note-contracts.js';

/**
 * The note tools in groups, as the auth tests of sessions and groups serve them: `status` (public)
 * and `whoami` eager in `service`; `read_note` (notes:read) deferred in `notes`; `write_note`
 * (notes:write, asking the client first) deferred in `notes` and `editing`; `publish_note`
 * (notes:write) deferred in `editing`. `notes` is undescribed, so its description is made of the
 * tools a caller sees.
 */

const contracts = {
  ...noteContracts,
  publishNote: defineTool({
    description: 'Publish a note.',
    input: z.object({ path: z.string() }),
    scopes: ['notes:write'],
  }),
};
// Access, groups and deferral as the build records them: `public` is the config's.
const placement: Record<string, { groups: string[]; deferred?: true; public?: true }> = {
  status: { groups: ['service'], public: true },
  whoami: { groups: ['service'] },
  read_note: { groups: ['notes'], deferred: true },
  write_note: { groups: ['notes', 'editing'], deferred: true },
  publish_note: { groups: ['editing'], deferred: true },
};
const base = prepareToolSet(contracts);
export const toolSet: PreparedToolSet = {
  ...base,
  groups: [
    { name: 'service', description: 'Whether the service is up, and who calls.' },
    // Undescribed: the draft's description is made of the tools the caller sees.
    { name: 'notes' },
    { name: 'editing', description: 'Edit and publish notes.' },
  ],
  prepared: base.prepared.map((tool) => {
    const placed = placement[tool.name] as (typeof placement)[string];
    return {
      ...tool,
      groups: placed.groups,
      ...(placed.deferred ? { loading: 'deferred' as const } : {}),
      ...(placed.public ? { access: { public: true as const } } : {}),
    };
  }),
};
export const runtime: ToolRuntime = createToolRuntime(toolSet, {
  handlers: {
    status: () => 'up',
    // biome-ignore lint/suspicious/noExplicitAny: the MCP context, read by the test.
    whoami: (_args: object, context: any) =>
      `${context.caller?.subject} ${context.caller?.scopes?.join(' ')}`,
    read_note: ({ path }: { path: string }) => `note ${path}`,
    // biome-ignore lint/suspicious/noExplicitAny: the MCP context.
    write_note: async ({ path }: { path: string }, context: any) => {
      const answer = await context.elicit({
        message: `Overwrite ${path}?`,
        requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } } },
      });
      return `${answer.action} ${path}`;
    },
    publish_note: ({ path }: { path: string }) => `published ${path}`,
  },
});
