import { gzipSync } from 'node:zlib';
import type { ManifestTool } from '../manifest/manifest.js';
import type { ViewCsp } from '../manifest/tool-set.js';
import { html } from './report-overview.js';

/** A tool's result as MCP carries it: the structured content and its JSON text. */
interface SampleResult {
  readonly content: readonly { readonly type: 'text'; readonly text: string }[];
  readonly structuredContent: Record<string, unknown>;
}

/** What the page answers for one tool: samples made from its documents, and who may call it. */
export interface ToolSample {
  readonly visibility: readonly ('model' | 'app')[];
  /** Absent when the input document describes no value the sampler can write (`inputMissing` says why). */
  readonly input?: unknown;
  readonly inputMissing?: string;
  /** Absent when the tool declares no output, or its document describes no value (`resultMissing`). */
  readonly result?: SampleResult;
  readonly resultMissing?: string;
}

/** A view's current version, as the page hosts it. */
export interface PreviewedView {
  /** Its tool's name. */
  readonly name: string;
  readonly uri: string;
  readonly html: string;
  readonly csp: ViewCsp;
  readonly permissions?: { readonly [permission: string]: Readonly<Record<string, never>> };
  readonly prefersBorder?: boolean;
}

/** The views a page previews, the bridge it hosts them with, and the samples it sends. */
export interface ReportPreviews {
  /** ext-apps' host side as one browser module, or why the views cannot be previewed. */
  readonly bridge: { readonly script: string } | { readonly missing: string };
  readonly views: readonly PreviewedView[];
  /** By tool name: every tool, for the calls a view makes. */
  readonly samples: Readonly<Record<string, ToolSample>>;
}

/**
 * The preview of the view a tool shows (none for a tool without a view of its own): closed, so the
 * view is unpacked and run only when it is opened.
 */
export function viewPreview(tool: ManifestTool, previews: ReportPreviews | undefined): string {
  const view = previews?.views.find((candidate) => candidate.name === tool.name);
  if (!previews || !view) return '';
  if ('missing' in previews.bridge)
    return `<p class="excluded">No preview of the view <code>${html(view.uri)}</code>: ${html(previews.bridge.missing)}.</p>`;
  return `<details class="preview" data-preview-tool="${html(tool.name)}"><summary>preview the view <code>${html(view.uri)}</code> with sample data</summary>
<p class="info">Hosted as a client would, through ext-apps' own <code>AppBridge</code> under the view's CSP. The input and the result are samples made from the tool's documents, and every tool the view calls is answered with a sample of its output: no MCP server is called (the view's own requests to the origins its CSP declares are made, as under a host).</p>
<div class="preview-frame"></div><ol class="preview-log"></ol></details>`;
}

/**
 * What the previews need, once per page: the bridge and each view's HTML packed (gzip, base64)
 * and unpacked by the browser when a preview first opens, the samples, and the host script.
 */
export function previewsScript(previews: ReportPreviews | undefined): string {
  if (!previews || previews.views.length === 0 || 'missing' in previews.bridge) return '';
  const data = {
    bridge: pack(previews.bridge.script),
    views: Object.fromEntries(
      previews.views.map(({ name, html: text, ...view }) => [name, { ...view, html: pack(text) }]),
    ),
    samples: previews.samples,
  };
  // `<` escaped: no text in the data can end the script element.
  const json = JSON.stringify(data).replace(/</g, '\\u003c');
  return `<script type="application/json" id="toolprep-previews">${json}</script>\n${HOST_SCRIPT}`;
}

const pack = (text: string): string => gzipSync(text, { level: 9 }).toString('base64');

/**
 * The page's host of MCP Apps views, as the specification describes one: the view in a sandboxed
 * iframe under the CSP its `_meta.ui` declares (in a `<meta>` the view cannot remove), connected
 * through ext-apps' `AppBridge`, sent the tool's sample input and result; a call to a tool visible
 * to apps is answered with that tool's sample output, any other refused; each is logged, and so is
 * what the CSP refuses.
 */
const HOST_SCRIPT = `<script>
(() => {
const data = JSON.parse(document.getElementById('toolprep-previews').textContent);
const unpack = (packed) => {
  const bytes = Uint8Array.from(atob(packed), (character) => character.charCodeAt(0));
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'))).text();
};
let bridgeModule;
const loadBridge = () =>
  (bridgeModule ??= unpack(data.bridge).then((code) => import(URL.createObjectURL(new Blob([code], { type: 'text/javascript' })))));
const cspOf = (csp = {}) => {
  const list = (origins, none) => (origins?.length ? origins.join(' ') : none);
  const resources = list(csp.resourceDomains, '');
  return [
    "default-src 'none'",
    "script-src 'self' 'unsafe-inline' " + resources,
    "style-src 'self' 'unsafe-inline' " + resources,
    "img-src 'self' data: " + resources,
    "font-src 'self' " + resources,
    "media-src 'self' data: " + resources,
    'connect-src ' + list(csp.connectDomains, "'none'"),
    'frame-src ' + list(csp.frameDomains, "'none'"),
    'base-uri ' + list(csp.baseUriDomains, "'self'"),
  ].map((directive) => directive.trim()).join('; ');
};
// What the CSP refuses is posted to the page, which AppBridge's transport ignores (not JSON-RPC).
// Its end tag escaped: this script is inside one.
const REPORTER =
  "<script>addEventListener('securitypolicyviolation',(event)=>parent.postMessage({toolprepCspViolation:event.violatedDirective+' '+event.blockedURI},'*'))<\\/script>";
const withCsp = (html, csp) => {
  const head = '<meta http-equiv="Content-Security-Policy" content="' + csp + '">' + REPORTER;
  return /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (open) => open + head) : head + html;
};
async function show(details) {
  const tool = details.dataset.previewTool;
  const view = data.views[tool];
  const sample = data.samples[tool];
  const log = details.querySelector('.preview-log');
  const say = (text, kind = 'step') => log.append(Object.assign(document.createElement('li'), { textContent: text, className: kind }));
  try {
    const { AppBridge, PostMessageTransport, buildAllowAttribute } = await loadBridge();
    const iframe = document.createElement('iframe');
    iframe.sandbox.add('allow-scripts');
    iframe.allow = buildAllowAttribute(view.permissions);
    iframe.title = 'the view of ' + tool;
    if (view.prefersBorder) iframe.className = 'bordered';
    details.querySelector('.preview-frame').append(iframe);
    addEventListener('message', (event) => {
      if (event.source === iframe.contentWindow && event.data?.toolprepCspViolation)
        say("the view's CSP refused " + event.data.toolprepCspViolation + (event.data.toolprepCspViolation === 'script-src eval' ? " (Zod's probe of new Function: see 'Hosts and the CSP' in docs/guide/views.md)" : ''), 'csp');
    });
    const bridge = new AppBridge(null, { name: 'toolprep surface page', version: '1.0.0' }, { serverTools: {}, openLinks: {} });
    bridge.oncalltool = async ({ name, arguments: args }) => {
      const called = data.samples[name];
      if (!called?.visibility.includes('app')) {
        say('refused the view a call to ' + name + (called ? ': its visibility has no "app"' : ': no such tool'), 'refused');
        throw new Error(name + ' is not a tool this view may call');
      }
      if (!called.result) {
        say('the view called ' + name + ': ' + called.resultMissing, 'refused');
        return { content: [{ type: 'text', text: called.resultMissing }], isError: true };
      }
      say('the view called ' + name + ' with ' + JSON.stringify(args ?? {}) + ': answered with a sample of its output, ' + called.result.content[0].text, 'call');
      return called.result;
    };
    bridge.onsizechange = ({ height }) => {
      if (height) iframe.style.height = height + 'px';
    };
    bridge.onmessage = async ({ content }) => {
      say('the view asked to send a message: ' + JSON.stringify(content));
      return {};
    };
    bridge.onopenlink = async ({ url }) => {
      say('the view asked to open ' + url + ' (a preview opens no link)');
      return {};
    };
    const initialized = new Promise((resolve) => {
      bridge.oninitialized = resolve;
    });
    await bridge.connect(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow));
    iframe.srcdoc = withCsp(await unpack(view.html), cspOf(view.csp));
    await initialized;
    if (sample.inputMissing) say(sample.inputMissing + ': sent {} as the input', 'refused');
    await bridge.sendToolInput({ arguments: sample.input ?? {} });
    if (!sample.inputMissing) say('sent a sample input: ' + JSON.stringify(sample.input));
    if (sample.result) {
      await bridge.sendToolResult(sample.result);
      say('sent a sample result: ' + sample.result.content[0].text);
    } else say(sample.resultMissing + ': no result sent', 'refused');
    details.dataset.state = 'shown';
  } catch (error) {
    say('the preview failed: ' + (error instanceof Error ? error.message : String(error)), 'refused');
    details.dataset.state = 'failed';
  }
}
for (const details of document.querySelectorAll('details.preview'))
  details.addEventListener('toggle', () => {
    if (!details.open || details.dataset.state) return;
    details.dataset.state = 'loading';
    show(details);
  });
})();
</script>`;
