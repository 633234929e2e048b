import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import pino from 'pino';
import type { TestUser } from '../apps/server/src/test/factories';
import { benchContext, benchPort, fundedUsers, line, listen, load, loadOutside, ON_PGLITE, POOL, ratio, verifyLine } from './lib';

/** The growth table: the reads with 64 connections spread over this many users. */
export const READ_USERS = process.env.READ_USERS ? process.env.READ_USERS.split(',').map(Number) : [1, 8, 64, 1000];

/**
 * Authenticated GET /api/user/wallet and /api/user/get-info, each beside a bare Fastify route
 * returning the same JSON body, 64 connections; first over one user (the figure), then
 * spread over 8, 64 and 1,000 users (each request the next user's token).
 */
export async function walletBench(seconds: number): Promise<void> {
  const { ctx, drop } = await benchContext(POOL ?? 32);
  const { app, url } = await listen(ctx);
  const bare = Fastify();
  try {
    const users = await fundedUsers(ctx, Math.max(...READ_USERS), 1234.56);
    const headersOf = (u: TestUser) => ({ authorization: `Bearer ${u.token}` });
    const paths = ['/api/user/wallet', '/api/user/get-info'];
    const samples = new Map<string, string>();
    for (const p of paths) samples.set(p, await (await fetch(`${url}${p}`, { headers: headersOf(users[0]!) })).text());
    bare.get('/*', async (req, reply) => reply.type('application/json').send(samples.get(req.url)));
    await bare.listen({ port: benchPort('BENCH_BARE_PORT'), host: '127.0.0.1' });
    const bareAddr = bare.server.address();
    const bareUrl = `http://127.0.0.1:${typeof bareAddr === 'object' && bareAddr ? bareAddr.port : 0}`;
    const growth: string[] = [];
    for (const p of paths) {
      // Warm both up first (JIT, pool connections), then measure.
      await load(`${bareUrl}${p}`, { connections: 64, seconds: 2, headers: headersOf(users[0]!) });
      await load(`${url}${p}`, { connections: 64, seconds: 2, headers: headersOf(users[0]!) });
      for (const n of READ_USERS) {
        // The baseline right before each figure: on a shared machine the background load drifts
        // within a run, and a baseline taken once at the start made later ratios swing ±40 %.
        // The same requests on both sides (the same tokens in turn): the load generator runs in
        // this process, and building each request from the cycle costs it ~7 % of the thread,
        // which a bare run without the cycle left out of its figure only.
        const cycle = users.slice(0, n).map(headersOf);
        const base = await load(`${bareUrl}${p}`, { connections: 64, seconds, headerCycle: cycle });
        line(`bare Fastify route, same JSON as ${p} (64 conns, same requests)`, `${base.rps} req/s, p50 ${base.p50} ms, p99 ${base.p99} ms`);
        const real = await load(`${url}${p}`, { connections: 64, seconds, headerCycle: cycle });
        line(
          `GET ${p}, bearer token (64 conns, ${n} user${n > 1 ? 's' : ''})`,
          `${real.rps} req/s, p50 ${real.p50} ms, p99 ${real.p99} ms, non-2xx ${real.non2xx}, errors ${real.errors}, timeouts ${real.timeouts}, ${ratio(real.rps, base.rps)} of bare`,
        );
        growth.push(`| ${p.replace('/api/user/', '')} | ${n} | ${real.rps} | ${real.p99} | ${base.rps} | ${ratio(real.rps, base.rps)} |`);
      }
    }
    console.log(
      `\n${ON_PGLITE ? 'PGlite' : 'PostgreSQL'} reads, growth (markdown):\n| read | users | req/s | p99 ms | bare req/s | ratio |\n| --- | --- | --- | --- | --- | --- |`,
    );
    for (const g of growth) console.log(g);
    // The same reads with the load generator in its own process (one user), each beside the bare
    // route measured the same way just before it.
    for (const p of paths) {
      const base = await loadOutside(`${bareUrl}${p}`, { connections: 64, seconds, headers: headersOf(users[0]!) });
      const real = await loadOutside(`${url}${p}`, { connections: 64, seconds, headers: headersOf(users[0]!) });
      line(
        `GET ${p}, generator outside this process (64 conns, 1 user)`,
        `${real.rps} req/s, p99 ${real.p99} ms, non-2xx ${real.non2xx}; bare ${base.rps} req/s, p99 ${base.p99} ms; ${ratio(real.rps, base.rps)} of bare`,
      );
    }
    // Logging at info (the server's default level): every request logged as the server does, to a
    // file, against the same app with logging off, same 1,000 users, same run.
    const logFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'usdt-bench-log-')), 'server.log');
    // As the server logs (pino's default destination: synchronous writes), to a file instead of stdout.
    const logged = await listen(
      ctx,
      { level: 'info', stream: pino.destination({ dest: logFile, sync: process.env.BENCH_LOG_ASYNC !== '1' }) },
      'BENCH_LOGGED_PORT',
    );
    try {
      const cycle = users.slice(0, 1000).map(headersOf);
      await load(`${logged.url}/api/user/wallet`, { connections: 64, seconds: 2, headerCycle: cycle });
      // Off, on, off: the ratio is against the mean of the two around it (drift, as above).
      const off1 = await load(`${url}/api/user/wallet`, { connections: 64, seconds, headerCycle: cycle });
      const on = await load(`${logged.url}/api/user/wallet`, { connections: 64, seconds, headerCycle: cycle });
      const off2 = await load(`${url}/api/user/wallet`, { connections: 64, seconds, headerCycle: cycle });
      const off = { rps: Math.round((off1.rps + off2.rps) / 2), p99: Math.max(off1.p99, off2.p99) };
      line('GET /api/user/wallet, 1000 users, logging off (mean of before and after)', `${off.rps} req/s, p99 ${off.p99} ms`);
      line(
        'GET /api/user/wallet, 1000 users, logging at info (file)',
        `${on.rps} req/s, p99 ${on.p99} ms, ${ratio(on.rps, off.rps)} of logging off, ${statSync(logFile).size.toLocaleString()} bytes logged`,
      );
    } finally {
      await logged.app.close();
    }
    line('ledger:verify', await verifyLine(ctx.db));
  } finally {
    await bare.close();
    await app.close();
    await drop();
  }
}
