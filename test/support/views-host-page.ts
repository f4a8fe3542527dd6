/// <reference lib="dom" />
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  AppBridge,
  buildAllowAttribute,
  getToolUiResourceUri,
  type McpUiResourceCsp,
  type McpUiResourceMeta,
  PostMessageTransport,
  RESOURCE_MIME_TYPE,
} from '@modelcontextprotocol/ext-apps/app-bridge';

/**
 * The page side of test/surfaces/mcp-views-host.test.ts, bundled for the browser with esbuild: a
 * host as MCP Apps describes one, built on ext-apps' own `AppBridge`. It connects to the MCP server
 * with the official SDK v2 client (declaring `io.modelcontextprotocol/ui`), finds a tool's view by
 * its `_meta.ui.resourceUri`, reads it with `resources/read`, renders it in a sandboxed iframe under
 * the CSP its `_meta.ui` declares (as the specification builds it, in a `<meta>` the view cannot
 * remove), delivers the tool's input and result, and lets the view call the server's tools that
 * are visible to apps, and no other.
 */

interface ShownView {
  readonly uri: string;
  readonly csp: string;
}

export interface ViewsHost {
  show(mcpUrl: string, tool: string, args: Record<string, unknown>): Promise<ShownView>;
  /** The tools the views called through the host so far, and those the host refused. */
  calls(): { readonly called: readonly string[]; readonly refused: readonly string[] };
}

const info = { name: 'toolprep-test-host', version: '1.0.0' };

/** The CSP of a view, as the specification builds it from `_meta.ui.csp` (defaults where a field is absent). */
function cspOf(csp: McpUiResourceCsp = {}): string {
  const resources = (csp.resourceDomains ?? []).join(' ');
  const connect = csp.connectDomains?.length ? csp.connectDomains.join(' ') : "'none'";
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `connect-src ${connect}`,
    `frame-src ${csp.frameDomains?.length ? csp.frameDomains.join(' ') : "'none'"}`,
    `base-uri ${csp.baseUriDomains?.length ? csp.baseUriDomains.join(' ') : "'self'"}`,
  ]
    .map((directive) => directive.trim())
    .join('; ');
}

/** The view's HTML with its CSP first in `<head>`, and a reporter of what the CSP blocks. */
function withCsp(html: string, csp: string): string {
  const report =
    "<script>document.addEventListener('securitypolicyviolation',(event)=>console.error('CSP violation: '+event.violatedDirective+' '+event.blockedURI+' @'+event.lineNumber+':'+event.columnNumber))</script>";
  const head = `<meta http-equiv="Content-Security-Policy" content="${csp}">${report}`;
  return html.replace(/<head[^>]*>/i, (open) => `${open}${head}`);
}

const called: string[] = [];
const refused: string[] = [];

const host: ViewsHost = {
  calls: () => ({ called, refused }),
  async show(mcpUrl, toolName, args) {
    const client = new Client(info, {
      capabilities: { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: [RESOURCE_MIME_TYPE] } } },
      versionNegotiation: { mode: 'auto' },
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)));
    const { tools } = await client.listTools();
    const tool = tools.find((listed) => listed.name === toolName);
    const uri = tool && getToolUiResourceUri(tool);
    if (!uri) throw new Error(`${toolName} has no view`);
    const { resources } = await client.listResources();
    const { contents } = await client.readResource({ uri });
    const content = contents[0];
    if (!content || !('text' in content) || content.mimeType !== RESOURCE_MIME_TYPE)
      throw new Error(`${uri} is not one HTML document of ${RESOURCE_MIME_TYPE}`);
    // The content's _meta.ui wins over the list entry's, as the specification says.
    const listedUi = resources.find((resource) => resource.uri === uri)?._meta?.ui as
      | McpUiResourceMeta
      | undefined;
    const ui = (content._meta?.ui as McpUiResourceMeta | undefined) ?? listedUi;
    const csp = cspOf(ui?.csp);

    const iframe = document.createElement('iframe');
    iframe.sandbox.add('allow-scripts');
    iframe.allow = buildAllowAttribute(ui?.permissions);
    iframe.style.cssText = `width: 480px; height: 240px; border: ${ui?.prefersBorder ? '1px solid #999' : 'none'}`;
    document.body.append(iframe);
    const view = iframe.contentWindow as Window;

    const bridge = new AppBridge(null, info, { serverTools: {} });
    // A host lets a view call only the tools visible to apps (MCP Apps: "visibility").
    bridge.oncalltool = async (params) => {
      const target = tools.find((listed) => listed.name === params.name);
      const visibility = (target?._meta?.ui as { visibility?: string[] } | undefined)?.visibility ?? [
        'model',
        'app',
      ];
      if (!target || !visibility.includes('app')) {
        refused.push(params.name);
        throw new Error(`${params.name} is not a tool this view may call`);
      }
      called.push(params.name);
      return client.callTool(params);
    };
    const initialized = new Promise<void>((resolve) => {
      bridge.oninitialized = () => resolve();
    });
    await bridge.connect(new PostMessageTransport(view, view));
    iframe.srcdoc = withCsp(content.text, csp);
    await initialized;
    await bridge.sendToolInput({ arguments: args });
    const result = await client.callTool({ name: toolName, arguments: args });
    await bridge.sendToolResult(result);
    return { uri, csp };
  },
};

(globalThis as unknown as { host: ViewsHost }).host = host;
