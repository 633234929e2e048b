import { allContracts, contracts, type Contract } from '@app/core/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app';
import { controlRoutes } from '../cli/control';
import { contractSerializer } from '../lib/response-serializer';
import { route } from '../lib/route';
import { registerContractGuard } from '../plugins/contracts';
import { registerErrorHandler } from '../plugins/error-handler';
import { useTestApp } from '../test/app';
import { newUserWallet } from '../test/wallets';

const key = (method: string, url: string) => `${method} ${url}`;
const contractKey = (c: Contract) => key(c.method, `/api${c.path}`);

describe('every route comes from a contract', () => {
  const t = useTestApp();
  let app: FastifyInstance;
  beforeAll(async () => {
    // The full set: the CLI control endpoint exists only in a process started with a control secret.
    app = await buildApp({ ctx: t.ctx, logger: false, extraRoutes: [controlRoutes('s'.repeat(32))] });
    await app.ready();
  });
  afterAll(async () => app.close());

  it('registers exactly the contracts: no route without a contract, no contract without a route', () => {
    const routes = app.apiRoutes.map((r) => key(String(r.method), r.url)).sort();
    const expected = allContracts.map(contractKey).sort();
    expect(new Set(routes).size).toBe(routes.length);
    expect(routes).toEqual(expected);
    for (const r of app.apiRoutes) expect(r.config?.contract && contractKey(r.config.contract)).toBe(key(String(r.method), r.url));
  });

  it('refuses at startup an /api route registered without a contract', async () => {
    const bare = Fastify();
    registerContractGuard(bare);
    await expect(bare.register(async (s) => s.get('/api/loose', async () => ({ success: true }))).ready()).rejects.toThrow('GET /api/loose has no contract');
    await bare.close();
  });

  it('documents each operation in /api/docs with its response schema, tag and, when signed in, the bearer scheme', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{
      components: { securitySchemes: Record<string, unknown> };
      paths: Record<
        string,
        Record<
          string,
          {
            tags?: string[];
            security?: Record<string, unknown>[];
            responses: Record<string, { content?: Record<string, { schema: { properties?: Record<string, unknown> } }> }>;
          }
        >
      >;
    }>();
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    let operations = 0;
    for (const c of allContracts.filter((x) => !x.hidden)) {
      if (c.path === '/sandbox/payments/:payment_id/pay' && !doc.paths['/api/sandbox/payments/{payment_id}/pay']) continue;
      const op = doc.paths[`/api${c.path.replace(/:(\w+)/g, '{$1}')}`]?.[c.method.toLowerCase()];
      expect(op, contractKey(c)).toBeDefined();
      operations++;
      expect(op!.tags).toEqual([c.tag]);
      if (c.produces) {
        // A file answer (a CSV export) is documented as that file type.
        expect(op!.responses['200']?.content?.[c.produces], contractKey(c)).toBeDefined();
      } else {
        const ok = op!.responses['200']?.content?.['application/json']?.schema;
        expect(ok?.properties?.success, contractKey(c)).toBeDefined();
        if (c.data) expect(ok?.properties?.data, contractKey(c)).toBeDefined();
      }
      expect(op!.responses['4XX'] ?? op!.responses['4xx'], contractKey(c)).toBeDefined();
      if (c.auth === 'public') expect(op!.security).toBeUndefined();
      else expect(op!.security, contractKey(c)).toEqual([{ bearer: [] }]);
    }
    expect(operations).toBeGreaterThan(60);
    expect(JSON.stringify(doc)).not.toContain('Default Response');
  });
});

/**
 * For every feature: an answer that does not match its contract (a wrong type where data is
 * expected, or a field the contract lacks) fails the request when answers are checked.
 */
describe('an answer that does not match its contract fails the request', () => {
  async function appFor(c: Contract, data: unknown) {
    const app = Fastify({ logger: false });
    app.setValidatorCompiler(() => (value) => ({ value }));
    app.setSerializerCompiler(contractSerializer(true));
    registerErrorHandler(app);
    app.decorate('authenticate', async () => undefined);
    app.decorate('requireAdmin', async () => undefined);
    await app.register(async (s) => route(s, c, async () => ({ success: true as const, data: data as never })), { prefix: '/api' });
    return app;
  }
  const urlOf = (c: Contract) => `/api${c.path.replace(/:(\w+)/g, '1')}`;

  for (const [feature, group] of Object.entries(contracts)) {
    it(`${feature}: every endpoint refuses a wrong answer`, async () => {
      for (const c of Object.values(group) as Contract[]) {
        if (c.data && c.data.safeParse(7).success) continue; // a contract that accepts any data (the CLI's) has no wrong answer
        if (c.produces) continue; // a file answer (CSV) is streamed, not an envelope; history/export.test.ts checks it
        // with data: a number where the contract wants an object or array; without: a field it does not have
        const app = await appFor(c, c.data ? 7 : { leaked: 'x' });
        const res = await app.inject({ method: c.method, url: urlOf(c), ...(c.method === 'GET' ? {} : { payload: {} }) });
        expect(res.statusCode, `${c.method} ${c.path}`).toBe(500);
        expect(res.json()).toEqual({ success: false, code: 'INTERNAL', message: 'Internal server error' });
        await app.close();
      }
    });
  }

  it('and a money field sent as a string instead of a number, while the right answer goes through', async () => {
    const wallet = { ...newUserWallet('1'), balance: 10.5 };
    const right = await appFor(contracts.user.wallet, wallet);
    const res = await right.inject({ method: 'GET', url: '/api/user/wallet' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: wallet });
    await right.close();
    const wrong = await appFor(contracts.user.wallet, { ...wallet, balance: '10.5' });
    expect((await wrong.inject({ method: 'GET', url: '/api/user/wallet' })).statusCode).toBe(500);
    await wrong.close();
  });
});
