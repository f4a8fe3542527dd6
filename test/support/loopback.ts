import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts a server on a free loopback port, kept in `servers` for the test to close; its port. */
export async function listenOnLoopback(server: Server, servers: Server[]): Promise<number> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** Closes the servers a test started, their connections first. */
export function closeAll(servers: readonly Server[]): void {
  for (const server of servers) {
    server.closeAllConnections();
    server.close();
  }
}
