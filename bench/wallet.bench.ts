import Fastify from 'fastify';
import { createUser, fundDeposit } from '../apps/server/src/test/factories';
import { benchContext, line, listen, load, POOL, ratio, verifyLine } from './lib';

/**
 * Authenticated GET /api/user/wallet and /api/user/get-info, each beside a bare Fastify route
 * returning the same JSON body, 64 connections.
 */
export async function walletBench(seconds: number): Promise<void> {
  const { ctx, drop } = await benchContext(POOL ?? 32);
  const { app, url } = await listen(ctx);
  const bare = Fastify();
  try {
    const u = await createUser(ctx.db, ctx.secret);
    await fundDeposit(ctx.db, u.id, 1234.56);
    const headers = { authorization: `Bearer ${u.token}` };
    const paths = ['/api/user/wallet', '/api/user/get-info'];
    const samples = new Map<string, string>();
    for (const p of paths) samples.set(p, await (await fetch(`${url}${p}`, { headers })).text());
    bare.get('/*', async (req, reply) => reply.type('application/json').send(samples.get(req.url)));
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareAddr = bare.server.address();
    const bareUrl = `http://127.0.0.1:${typeof bareAddr === 'object' && bareAddr ? bareAddr.port : 0}`;
    for (const p of paths) {
      // Warm both up first (JIT, pool connections), then measure.
      await load(`${bareUrl}${p}`, { connections: 64, seconds: 2 });
      await load(`${url}${p}`, { connections: 64, seconds: 2, headers });
      const base = await load(`${bareUrl}${p}`, { connections: 64, seconds });
      const real = await load(`${url}${p}`, { connections: 64, seconds, headers });
      line(`bare Fastify route, same JSON as ${p} (64 conns)`, `${base.rps} req/s, p50 ${base.p50} ms, p99 ${base.p99} ms`);
      line(
        `GET ${p}, bearer token (64 conns)`,
        `${real.rps} req/s, p50 ${real.p50} ms, p99 ${real.p99} ms, non-2xx ${real.non2xx}, errors ${real.errors}, ${ratio(real.rps, base.rps)} of bare`,
      );
    }
    line('ledger:verify', await verifyLine(ctx.db));
  } finally {
    await bare.close();
    await app.close();
    await drop();
  }
}
