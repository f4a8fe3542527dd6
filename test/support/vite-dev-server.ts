/** A Vite dev server with toolprep's plugin on a project, listening on a loopback port. */
export async function startViteDevServer(root: string): Promise<{ url: string; close(): Promise<void> }> {
  const { createServer } = await import('vite');
  const { default: toolprep } = await import('@toolprep/build/vite');
  const server = await createServer({
    root,
    configFile: false,
    appType: 'custom',
    logLevel: 'silent',
    plugins: [toolprep()],
    server: { port: 0, host: '127.0.0.1' },
  });
  await server.listen();
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') {
    await server.close();
    throw new Error('the Vite dev server is not listening on a port');
  }
  return { url: `http://127.0.0.1:${address.port}`, close: () => server.close() };
}
