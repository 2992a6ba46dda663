import type { Server } from 'node:http';

/**
 * Starts `server` on `port` of `host` (0: any free port) and answers its address and how to stop it, open
 * connections included (a keep-alive client would hold `close` back otherwise): the local stand-ins' one way to listen.
 */
export async function listen(server: Server, port: number, host = '127.0.0.1'): Promise<{ url: string; stop(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`,
    stop: () => stopping(server),
  };
}

/** Closes `server` and every connection it still holds. */
export const stopping = (server: Pick<Server, 'close' | 'closeAllConnections'>) =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
