/// <reference lib="dom" />
import './jitless.js';
import { App } from '@modelcontextprotocol/ext-apps';

/**
 * The to-do view of test/surfaces/mcp-views-host.test.ts: the list of the tool's result, then an
 * item added through `todo_add`, a tool only the view calls (`visibility: ["app"]`), through the host.
 */

const root = document.getElementById('root') as HTMLElement;
const list = root.appendChild(document.createElement('ul'));
const show = (items: readonly string[]) => {
  list.replaceChildren(
    ...items.map((item) => {
      const entry = document.createElement('li');
      entry.textContent = item;
      return entry;
    }),
  );
};

const app = new App({ name: 'todo', version: '1.0.0' });
app.ontoolresult = async ({ structuredContent }) => {
  show((structuredContent as { items: string[] }).items);
  const added = await app.callServerTool({ name: 'todo_add', arguments: { item: 'added by the view' } });
  show((added.structuredContent as { items: string[] }).items);
  document.body.dataset.state = 'done';
};
await app.connect();
