/** The emulator's HTTP server: the app served on its host and port, and where it answers. */
import type { AddressInfo } from 'node:net';
import { type ServerType, serve } from '@hono/node-server';
import type { createApp } from '../app.js';

export interface Listening {
  server: ServerType;
  address: AddressInfo;
  /** `http://host:port`, the host in brackets when it is IPv6. */
  url: string;
}

export async function listen(
  app: ReturnType<typeof createApp>,
  where: { host: string; port: number | undefined; overrideGlobalObjects: boolean },
): Promise<Listening> {
  const server = await new Promise<ServerType>((resolve, reject) => {
    const s = serve(
      {
        fetch: app.fetch,
        port: where.port ?? 0,
        hostname: where.host,
        overrideGlobalObjects: where.overrideGlobalObjects,
      },
      () => resolve(s),
    );
    s.once('error', reject);
  });
  const address = server.address() as AddressInfo;
  const urlHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return { server, address, url: `http://${urlHost}:${address.port}` };
}
