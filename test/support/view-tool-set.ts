import { createHash } from 'node:crypto';
import { prepareToolSet } from '@toolprep/build';
import { defineTool } from 'toolprep';
import type { PreparedToolSet, PreparedView, ViewCsp } from 'toolprep/runtime';
import { createToolRuntime } from 'toolprep/runtime';
import { z } from 'zod';

/**
 * Three tools with views (MCP Apps), as the build records them in the manifest format the runtime
 * reads (`PreparedToolSet.views`, `PreparedTool.view`), made here from real HTML: a forecast that
 * fetches a declared API origin, a gallery whose images come from a declared CDN, and a to-do list
 * whose `todo_add` helper only its view calls (`visibility: ["app"]`). The forecast also has an
 * older version kept readable.
 */

export interface ViewHtml {
  readonly forecast: string;
  readonly gallery: string;
  readonly todo: string;
}

export interface ViewOrigins {
  /** What the forecast view fetches from (`connectDomains`). */
  readonly api: string;
  /** Where the gallery's images come from (`resourceDomains`). */
  readonly cdn: string;
}

export const OLD_FORECAST_HTML = '<!doctype html><html><body>an older forecast</body></html>';

const contracts = {
  weather: defineTool({
    description: 'The weather in a city.',
    input: z.object({ city: z.string() }),
    output: z.object({ city: z.string(), temperature: z.number() }),
  }),
  gallery: defineTool({
    description: 'Pictures with a tag.',
    input: z.object({ tag: z.string() }),
    output: z.object({ tag: z.string(), images: z.array(z.string()) }),
  }),
  todoList: defineTool({
    description: 'The to-do list.',
    input: z.object({}),
    output: z.object({ items: z.array(z.string()) }),
  }),
  todoAdd: defineTool({
    description: 'Add an item to the to-do list.',
    input: z.object({ item: z.string() }),
    output: z.object({ items: z.array(z.string()) }),
  }),
};

// The build's digest also covers the view's `_meta.ui` (decision 0062); the runtime only carries it.
const digestOf = (html: string): string => createHash('sha256').update(html).digest('hex').slice(0, 16);

function view(name: string, html: string, csp: ViewCsp, current = true): PreparedView {
  const digest = digestOf(html);
  return {
    uri: `ui://${name}/${digest}.html`,
    name,
    digest,
    bytes: Buffer.byteLength(html),
    current,
    csp,
    ...(name === 'gallery' ? { prefersBorder: true } : {}),
    ...(name === 'todo' ? { permissions: { clipboardWrite: {} } } : {}),
    html: async () => html,
  };
}

/** The tool set, its views first by name; `options` are prepareToolSet's (a search index, say). */
export function viewToolSet(
  html: ViewHtml,
  origins: ViewOrigins,
  options: Parameters<typeof prepareToolSet>[1] = {},
): PreparedToolSet {
  const views = [
    view('forecast', html.forecast, { connectDomains: [origins.api] }),
    view('forecast', OLD_FORECAST_HTML, { connectDomains: [origins.api] }, false),
    view('gallery', html.gallery, { resourceDomains: [origins.cdn] }),
    view('todo', html.todo, {}),
  ];
  const uriOf = (name: string) => views.find((one) => one.name === name && one.current)?.uri as string;
  const links: Record<string, { resourceUri: string; visibility: ('model' | 'app')[] }> = {
    weather: { resourceUri: uriOf('forecast'), visibility: ['model', 'app'] },
    gallery: { resourceUri: uriOf('gallery'), visibility: ['model', 'app'] },
    todo_list: { resourceUri: uriOf('todo'), visibility: ['model', 'app'] },
    todo_add: { resourceUri: uriOf('todo'), visibility: ['app'] },
  };
  const base = prepareToolSet(contracts, options);
  return {
    ...base,
    prepared: base.prepared.map((tool) => ({ ...tool, view: links[tool.name] })),
    views,
  };
}

/**
 * The runtime of the tool set, its handlers keeping one to-do list; `adapt` changes the tool set
 * first (access rules, a captured handshake).
 */
export function viewRuntime(
  html: ViewHtml,
  origins: ViewOrigins,
  adapt: (toolSet: PreparedToolSet) => PreparedToolSet = (toolSet) => toolSet,
) {
  const items = ['water the plants'];
  return createToolRuntime(adapt(viewToolSet(html, origins)), {
    handlers: {
      weather: ({ city }: { city: string }) => ({ city, temperature: 21 }),
      gallery: ({ tag }: { tag: string }) => ({ tag, images: [`${origins.cdn}/${tag}-1.png`] }),
      todo_list: () => ({ items: [...items] }),
      todo_add: ({ item }: { item: string }) => {
        items.push(item);
        return { items: [...items] };
      },
    },
  });
}
