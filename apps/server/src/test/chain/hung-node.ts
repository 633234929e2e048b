import net from 'node:net';

export interface HungNode {
  /** http://127.0.0.1:<port>: accepts connections and reads requests, and never answers */
  url: string;
  /** connections accepted so far (the watcher has asked once this moves) */
  connections(): number;
  close(): Promise<void>;
}

/**
 * A chain node that hangs: the TCP connection is accepted and the request read, and no byte ever
 * comes back. What an overloaded or wedged RPC endpoint looks like to fetch; only a timeout or an
 * abort ends a call to it.
 */
export async function startHungNode(): Promise<HungNode> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((s) => {
    accepted++;
    sockets.add(s);
    s.on('data', () => undefined);
    s.on('error', () => undefined);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('hung node: no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    connections: () => accepted,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
