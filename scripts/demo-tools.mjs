import { z } from 'zod';
import { defineTool } from '../dist/src/contract/index.js';

export const readFiles = defineTool({
  description: 'Read one file or several files from the workspace.',
  input: z.object({
    paths: z.union([z.string(), z.array(z.string()).min(1)]).describe('A path, or a list of paths'),
    encoding: z.enum(['utf8', 'base64']).default('utf8'),
  }),
  annotations: { readOnlyHint: true },
});

export const editNote = defineTool({
  description: 'Create, rename or delete a note.',
  params: z.object({ notebook: z.string() }),
  input: z.discriminatedUnion('action', [
    z.object({ action: z.literal('create'), title: z.string(), body: z.string() }),
    z.object({ action: z.literal('rename'), title: z.string(), to: z.string() }),
    z.object({ action: z.literal('delete'), title: z.string() }),
  ]),
});
