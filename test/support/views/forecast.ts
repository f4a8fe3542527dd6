/// <reference lib="dom" />
import './jitless.js';
import { App } from '@modelcontextprotocol/ext-apps';

/**
 * The forecast view of test/surfaces/mcp-views-host.test.ts: the city from the tool's input, the
 * temperature from its result, then the alerts it fetches from the API origin its CSP declares
 * (`connectDomains`).
 */

declare const API_ORIGIN: string;

const root = document.getElementById('root') as HTMLElement;
const line = (id: string, text: string) => {
  const element = document.getElementById(id) ?? root.appendChild(document.createElement('p'));
  element.id = id;
  element.textContent = text;
};

const app = new App({ name: 'forecast', version: '1.0.0' });
app.ontoolinput = ({ arguments: args }) => line('input', `City: ${String(args?.city)}`);
app.ontoolresult = async ({ structuredContent }) => {
  const { city, temperature } = structuredContent as { city: string; temperature: number };
  line('result', `${city}: ${temperature} °C`);
  const alerts = await (await fetch(`${API_ORIGIN}/alerts?city=${encodeURIComponent(city)}`)).text();
  line('alerts', `Alerts: ${alerts}`);
  document.body.dataset.state = 'done';
};
await app.connect();
