import Fastify from 'fastify';
import { createUser, fundDeposit } from '../apps/server/src/test/factories';
import { benchContext, line, listen, load } from './lib';

/** Authenticated GET /api/user/wallet against a bare Fastify route returning the same JSON, 64 connections. */
export async function walletBench(seconds: number): Promise<void> {
  const { ctx, drop } = await benchContext(32);
  const { app, url } = await listen(ctx);
  try {
    const u = await createUser(ctx.db, ctx.secret);
    await fundDeposit(ctx.db, u.id, 1234.56);
    const headers = { authorization: `Bearer ${u.token}` };
    const sample = await (await fetch(`${url}/api/user/wallet`, { headers })).text();
    const bare = Fastify();
    bare.get('/wallet', async (_req, reply) => reply.type('application/json').send(sample));
    await bare.listen({ port: 0, host: '127.0.0.1' });
    const bareAddr = bare.server.address();
    const bareUrl = `http://127.0.0.1:${typeof bareAddr === 'object' && bareAddr ? bareAddr.port : 0}/wallet`;
    // Warm both up first (JIT, pool connections), then measure.
    await load(bareUrl, { connections: 64, seconds: 2 });
    await load(`${url}/api/user/wallet`, { connections: 64, seconds: 2, headers });
    const base = await load(bareUrl, { connections: 64, seconds });
    const real = await load(`${url}/api/user/wallet`, { connections: 64, seconds, headers });
    line('bare Fastify route, same JSON (64 conns)', `${base.rps} req/s, p50 ${base.p50} ms, p99 ${base.p99} ms`);
    line('GET /api/user/wallet, bearer token (64 conns)', `${real.rps} req/s, p50 ${real.p50} ms, p99 ${real.p99} ms, non-2xx ${real.non2xx}`);
    await bare.close();
  } finally {
    await app.close();
    await drop();
  }
}
