import { describe, expect, it } from 'vitest';
import { payments } from '@app/core/contracts';
import { inject } from '../../test/api';
import * as ledger from '../ledger/service';
import { evmClient } from './rpc/client';
import { httpTransport, type RpcRequest, type RpcResponse } from './rpc/json-rpc';
import { configureCustody } from './runtime';
import { usdtRaw, useChainTest } from '../../test/chain/test-chain';

/** What an attacker can try against the chain gateway, and what the watcher does with it. */
describe('attacks on the chain gateway', () => {
  const c = useChainTest();

  it('a deposit to another user’s address credits that user, and nobody sees another’s address or payment', async () => {
    await c.tick();
    const [a, b] = [await c.user(), await c.user()];
    const paid = (await inject(c.t.app, payments.create, { token: a.token, body: { amount: 10, currency: 'usdtbsc' } })).data();
    // A pays 10 to B's address hoping to have it counted as A's payment.
    await c.deposit('bsc', b.evm, '10');
    await c.anvil.mine(5);
    await c.tick();
    expect(await c.balance(a.id)).toBe(0n);
    expect(await c.balance(b.id)).toBe(10_000_000n);
    const status = await inject(c.t.app, payments.status, { token: b.token, body: { payment_id: paid.payment_id } });
    expect(status.statusCode).toBe(404);
    const mine = (await inject(c.t.app, payments.addresses, { token: a.token })).data();
    expect(mine.usdtbsc).toBe(a.evmDisplay);
  });

  it('a forged log (the token’s address, a block hash the chain never had) is never stored or credited', async () => {
    await c.tick();
    const u = await c.user();
    const real = httpTransport(c.anvil.url);
    const head = await c.anvil.head();
    const forged = {
      address: c.bsc,
      topics: ['0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef', `0x${'0'.repeat(64)}`, `0x${u.evm.slice(2).padStart(64, '0')}`],
      data: `0x${(10n ** 30n).toString(16).padStart(64, '0')}`,
      blockNumber: `0x${(head + 1n).toString(16)}`,
      blockHash: `0x${'ab'.repeat(32)}`,
      transactionHash: `0x${'cd'.repeat(32)}`,
      logIndex: '0x0',
      removed: false,
    };
    // A malicious node adds the forged log to every log answer that covers its block.
    const lying = async (body: RpcRequest | RpcRequest[], o: { timeoutMs: number }) => {
      const res = await real(body, o);
      const reqs = Array.isArray(body) ? body : [body];
      const answers = (Array.isArray(res) ? res : [res]) as RpcResponse[];
      for (const [i, r] of reqs.entries()) {
        if (r.method !== 'eth_getLogs') continue;
        const f = r.params[0] as { fromBlock: string; toBlock: string };
        if (BigInt(f.fromBlock) <= head + 1n && BigInt(f.toBlock) >= head + 1n) {
          const a = answers.find((x) => x.id === r.id) ?? answers[i]!;
          a.result = [...(a.result as unknown[]), forged];
        }
      }
      return res;
    };
    configureCustody(c.t.ctx, { clients: { bsc: evmClient(lying) } });
    await c.anvil.mine(8);
    for (let i = 0; i < 3; i++) await c.tick().catch(() => undefined);
    configureCustody(c.t.ctx, { clients: { bsc: evmClient(c.anvil.url) } });
    await c.tick();
    expect(await c.t.db.selectFrom('chain_observations').select('id').where('tx_hash', '=', forged.transactionHash).execute()).toEqual([]);
    expect(await c.balance(u.id)).toBe(0n);
  });

  it('a replayed log (the same log answered again and again, in later ranges too) is credited once', async () => {
    await c.tick();
    const u = await c.user();
    const d = await c.deposit('bsc', u.evm, '7');
    let replay: unknown;
    const real = httpTransport(c.anvil.url);
    const replaying = async (body: RpcRequest | RpcRequest[], o: { timeoutMs: number }) => {
      const res = await real(body, o);
      for (const a of (Array.isArray(res) ? res : [res]) as RpcResponse[]) {
        if (!Array.isArray(a.result) || !a.result.length || typeof (a.result[0] as { topics?: unknown }).topics !== 'object') continue;
        const hit = (a.result as { transactionHash: string }[]).find((l) => l.transactionHash === d.txHash);
        if (hit) replay = hit;
        if (replay) a.result = [...(a.result as unknown[]), replay, replay];
      }
      return res;
    };
    configureCustody(c.t.ctx, { clients: { bsc: evmClient(replaying) } });
    for (let i = 0; i < 6; i++) {
      await c.anvil.mine(2);
      await c.tick();
    }
    configureCustody(c.t.ctx, { clients: { bsc: evmClient(c.anvil.url) } });
    expect(await c.balance(u.id)).toBe(7_000_000n);
    expect(await c.t.db.selectFrom('chain_observations').select('id').where('tx_hash', '=', d.txHash).execute()).toHaveLength(1);
  });

  it('a huge amount is held for an admin, not credited, and the watcher goes on', async () => {
    await c.tick();
    const u = await c.user();
    const huge = await c.anvil.mint(c.bsc, u.evm, 2n ** 255n);
    await c.deposit('bsc', u.evm, '3');
    await c.anvil.mine(5);
    await c.tick();
    const o = await c.t.db.selectFrom('chain_observations').selectAll().where('tx_hash', '=', huge.txHash).executeTakeFirstOrThrow();
    expect(o).toMatchObject({ status: 'held', amount: 0n, raw_amount: (2n ** 255n).toString() });
    expect(await c.balance(u.id)).toBe(3_000_000n);
    expect((await ledger.verify(c.t.db)).ok).toBe(true);
    expect(usdtRaw('1', 18)).toBe(10n ** 18n);
  });

  it('an address cannot belong to two users, whatever writes it', async () => {
    const [a, b] = [await c.user(), await c.user()];
    const idx = (await c.t.db.selectFrom('custody_accounts').select('idx').where('user_id', '=', b.id).executeTakeFirstOrThrow()).idx;
    await expect(
      c.t.db
        .insertInto('custody_addresses')
        .values({ family: 'evm', address: a.evm, user_id: b.id, idx: idx + 100_000, xpub: 'x' })
        .execute(),
    ).rejects.toThrow();
    await expect(c.t.db.insertInto('custody_accounts').values({ user_id: b.id, idx: 0 }).execute()).rejects.toThrow();
  });
});
