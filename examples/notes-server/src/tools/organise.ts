import { defineTool } from 'toolprep';
import { z } from 'zod';

/** Set the tags of several notes at once. */
export const tagNotes = defineTool({
  input: z.object({
    notes: z.array(z.object({ path: z.string(), tags: z.array(z.string().min(1)) })).min(1),
  }),
});

interface Section {
  title: string;
  children?: Section[];
}
const Section: z.ZodType<Section> = z.object({
  title: z.string().min(1),
  get children() {
    return z.array(Section).optional();
  },
});

/** Replace a note's outline with a tree of sections; returns how many sections it holds. */
export const setOutline = defineTool({
  input: z.object({ path: z.string(), outline: z.array(Section) }),
  output: z.object({ sections: z.number() }),
});

/** Search the notes for text. */
export const searchNotes = defineTool({
  input: z.object({ query: z.string().min(1), limit: z.number().int().min(1).max(50).default(10) }),
  output: z.object({ matches: z.array(z.object({ path: z.string(), line: z.number(), text: z.string() })) }),
  annotations: { readOnlyHint: true },
});

/** List the notes, with their tags. */
export const listNotes = defineTool({
  input: z.object({ folder: z.string().optional() }),
  annotations: { readOnlyHint: true },
});
