import { defineTool } from 'toolprep';
import { z } from 'zod';

const notePath = z
  .string()
  .min(1)
  .describe('A note path, relative to the notes folder, such as "ideas/today.md"');

/** Read one note, or several at once. */
export const readNotes = defineTool({
  input: z.object({
    paths: z.union([notePath, z.array(notePath).min(1)]).describe('A note path, or a list of note paths'),
  }),
  output: z.object({ notes: z.array(z.object({ path: z.string(), text: z.string() })) }),
  annotations: { readOnlyHint: true },
});

/** Create a note, or replace one. */
export const writeNote = defineTool({
  input: z.object({ path: notePath, text: z.string(), overwrite: z.boolean().default(false) }),
  annotations: { destructiveHint: true },
});

/** Change a note: append to it, replace a passage, or rename it. */
export const editNote = defineTool({
  input: z.discriminatedUnion('action', [
    z.object({ action: z.literal('append'), path: notePath, text: z.string() }),
    z.object({ action: z.literal('replace'), path: notePath, find: z.string().min(1), with: z.string() }),
    z.object({ action: z.literal('rename'), path: notePath, to: notePath }),
  ]),
});

/** Delete one note or several. */
export const deleteNotes = defineTool({
  input: z.object({ paths: z.union([notePath, z.array(notePath).min(1)]) }),
  annotations: { destructiveHint: true, idempotentHint: true },
});
