import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { useChainTest, type ChainTest } from '../../test/chain/test-chain';
import { admin as adminContracts, payments } from '@app/core/contracts';
import { inject } from '../../test/api';
import { createUser } from '../../test/factories';

/** The app logger swapped for one that keeps its lines, for the length of `fn`. */
async function captureLogs(c: ChainTest, fn: () => Promise<void>): Promise<{ level: number; msg: string; [k: string]: unknown }[]> {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  const before = c.t.ctx.log;
  c.t.ctx.log = pino({ level: 'info' }, sink);
  try {
    await fn();
  } finally {
    c.t.ctx.log = before;
  }
  return lines.map((l) => JSON.parse(l) as { level: number; msg: string });
}

describe('a top-up inside the payment window', () => {
  const c = useChainTest();

  it('completes the partly paid payment instead of opening one of its own', async () => {
    await c.tick();
    const u = await c.user();
    const created = await inject(c.t.app, payments.create, { token: u.token, body: { amount: 10, currency: 'usdtbsc' } });
    const id = created.data().payment_id;
    await c.deposit('bsc', u.evm, '4');
    await c.anvil.mine(5);
    await c.tick();
    const part = await c.t.db.selectFrom('payments').selectAll().where('provider_payment_id', '=', id).executeTakeFirstOrThrow();
    expect(part).toMatchObject({ status: 'partially_paid', actually_paid: 4_000_000n });

    const top = await c.deposit('bsc', u.evm, '6');
    await c.anvil.mine(1);
    await c.tick();
    // Seen, not final yet: claimed by the open payment, which stays partially paid meanwhile.
    const seen = await c.t.db.selectFrom('chain_observations').selectAll().where('tx_hash', '=', top.txHash).executeTakeFirstOrThrow();
    expect(seen.payment_id).toBe(part.id);
    const listed = await inject(c.t.app, payments.pending, { token: u.token });
    expect(listed.data()).toEqual([expect.objectContaining({ payment_id: id, status: 'partially_paid', required_confirmations: 5 })]);
    expect((await c.t.db.selectFrom('payments').select('status').where('id', '=', part.id).executeTakeFirstOrThrow()).status).toBe('partially_paid');
    await c.anvil.mine(5);
    await c.tick();

    const done = await c.t.db.selectFrom('payments').selectAll().where('id', '=', part.id).executeTakeFirstOrThrow();
    expect(done).toMatchObject({ status: 'finished', actually_paid: 10_000_000n, credited_amount: 10_000_000n, tx_hash: top.txHash });
    expect((done.extra as { history: { status: string }[] }).history.map((h) => h.status)).toEqual(['waiting', 'confirming', 'partially_paid', 'finished']);
    const all = await c.t.db.selectFrom('payments').select('id').where('user_id', '=', u.id).execute();
    expect(all).toHaveLength(1);
    // The count and the depth are fields of the payment itself, not only inside `extra`.
    const status = await inject(c.t.app, payments.status, { token: u.token, body: { payment_id: id } });
    expect(status.statusCode, status.body).toBe(200);
    expect(status.data()).toMatchObject({ status: 'finished', confirmations: expect.any(Number), required_confirmations: 5 });
    expect(status.data().confirmations).toBeGreaterThanOrEqual(5);
    expect(await c.balance(u.id)).toBe(10_000_000n);
  });

  it('after the window a top-up is its own payment, credited in full', async () => {
    await c.tick();
    const u = await c.user();
    const created = await inject(c.t.app, payments.create, { token: u.token, body: { amount: 10, currency: 'usdtbsc' } });
    const id = created.data().payment_id;
    await c.deposit('bsc', u.evm, '4');
    await c.anvil.mine(5);
    await c.tick();
    await c.t.db
      .updateTable('payments')
      .set({ window_end: new Date(Date.now() - 1000) })
      .where('provider_payment_id', '=', id)
      .execute();
    await c.deposit('bsc', u.evm, '6');
    await c.anvil.mine(5);
    await c.tick();
    const rows = await c.t.db.selectFrom('payments').select(['status', 'credited_amount']).where('user_id', '=', u.id).orderBy('id').execute();
    expect(rows).toEqual([
      { status: 'partially_paid', credited_amount: 4_000_000n },
      { status: 'finished', credited_amount: 6_000_000n },
    ]);
  });
});

describe('what waits for an admin: dust, held transfers, and the log', () => {
  const c = useChainTest();
  const admin = () => createUser(c.t.db, c.t.ctx.secret, { isAdmin: true });
  const view = async (token: string) => {
    const res = await inject(c.t.app, adminContracts.custody, { token });
    expect(res.statusCode, res.body).toBe(200);
    return res.data();
  };

  it('logs credits, transfers under the minimum and held transfers', async () => {
    await c.tick();
    const u = await c.user();
    const logs = await captureLogs(c, async () => {
      await c.deposit('bsc', u.evm, '2.5');
      await c.deposit('bsc', u.evm, '0.25');
      await c.anvil.mint(c.bsc, u.evm, 2n ** 255n);
      await c.anvil.mine(5);
      await c.tick();
    });
    const msgs = logs.map((l) => l.msg);
    expect(logs.find((l) => l.msg === 'custody deposit credited')).toMatchObject({ level: 30, network: 'bsc', userId: String(u.id), amount: '2.5' });
    expect(msgs).toContain('custody deposit below the minimum: not credited, waits for an admin');
    expect(logs.find((l) => l.msg.startsWith('custody transfer held'))).toMatchObject({ level: 40, rawAmount: (2n ** 255n).toString() });
  });

  it('shows a held transfer with its amount and the dismiss action; dust answers 400 on credit and can be dismissed', async () => {
    await c.tick();
    const u = await c.user();
    const dust = await c.anvil.mint(c.bsc, u.evm, 7n); // 7 × 10^-18 USDT: under one micro-unit
    // The token's total supply has 2^255 from the test before: this one still fits under 2^256.
    const held = await c.anvil.mint(c.bsc, u.evm, 2n ** 254n);
    await c.deposit('bsc', u.evm, '0.5');
    await c.anvil.mine(5);
    await c.tick();
    const a = await admin();
    const waiting = (await view(a.token)).not_credited;
    const d = waiting.find((w) => w.tx_hash === dust.txHash)!;
    const h = waiting.find((w) => w.tx_hash === held.txHash)!;
    const small = waiting.find((w) => w.tx_hash !== dust.txHash && w.tx_hash !== held.txHash && w.amount === 0.5)!;
    expect(d).toMatchObject({ status: 'below_minimum', amount: 0, token_amount: '0.000000000000000007', actions: ['dismiss'] });
    expect(h).toMatchObject({ status: 'held', amount: 0, actions: ['dismiss'] });
    expect(h.token_amount).toBe('28948022309329048855892746252171976963317496166410141009864.396001978282409984');
    expect(small).toMatchObject({ status: 'below_minimum', token_amount: '0.5', actions: ['credit', 'dismiss'] });

    const credit = await inject(c.t.app, adminContracts.custodyCredit, { params: { id: d.id }, token: a.token });
    expect(credit.statusCode, credit.body).toBe(400);
    expect(credit.json()).toMatchObject({ success: false, code: 'BAD_REQUEST', message: expect.stringMatching(/below one micro-USDT .*Dismiss it/) });
    const creditHeld = await inject(c.t.app, adminContracts.custodyCredit, { params: { id: h.id }, token: a.token });
    expect(creditHeld.statusCode, creditHeld.body).toBe(400);

    const u2 = await createUser(c.t.db, c.t.ctx.secret);
    expect((await inject(c.t.app, adminContracts.custodyDismiss, { params: { id: d.id }, token: u2.token })).statusCode).toBe(403);
    const logs = await captureLogs(c, async () => {
      for (const id of [d.id, h.id]) {
        const res = await inject(c.t.app, adminContracts.custodyDismiss, { params: { id }, token: a.token });
        expect(res.statusCode, res.body).toBe(200);
      }
    });
    expect(logs.filter((l) => l.msg === 'custody transfer dismissed')).toHaveLength(2);
    expect((await inject(c.t.app, adminContracts.custodyDismiss, { params: { id: d.id }, token: a.token })).statusCode).toBe(404);
    const left = (await view(a.token)).not_credited.map((w) => w.id);
    expect(left).not.toContain(d.id);
    expect(left).not.toContain(h.id);
    const dustPayment = await c.t.db
      .selectFrom('payments')
      .innerJoin('chain_observations', 'chain_observations.payment_id', 'payments.id')
      .select(['payments.status', 'payments.needs_review', 'chain_observations.status as observation'])
      .where('chain_observations.id', '=', BigInt(d.id))
      .executeTakeFirstOrThrow();
    expect(dustPayment).toEqual({ status: 'failed', needs_review: false, observation: 'dismissed' });
    expect(await c.t.db.selectFrom('admin_audit_log').select('target_id').where('action', '=', 'custody.dismiss').execute()).toHaveLength(2);
    expect(await c.balance(u.id)).toBe(0n);
  });
});

describe('the log of reorgs', () => {
  const c = useChainTest();

  it('logs orphaned transfers (warn) and a halt (error)', async () => {
    await c.tick();
    const u = await c.user();
    const orphan = await captureLogs(c, async () => {
      await c.deposit('bsc', u.evm, '40');
      await c.anvil.mine(1);
      await c.tick();
      await c.anvil.reorg(2);
      expect((await c.tick()).orphaned).toBe(1);
    });
    expect(orphan.find((l) => l.msg.startsWith('custody transfers orphaned'))).toMatchObject({
      level: 40,
      network: 'bsc',
      observationIds: [expect.any(String)],
    });

    await c.deposit('bsc', u.evm, '30');
    await c.anvil.mine(6);
    await c.tick();
    expect(await c.balance(u.id)).toBe(30_000_000n);
    const halt = await captureLogs(c, async () => {
      await c.anvil.reorg(8);
      expect((await c.tick()).halted).toBe(true);
    });
    expect(halt.find((l) => l.msg.startsWith('custody network halted'))).toMatchObject({
      level: 50,
      network: 'bsc',
      reason: expect.stringMatching(/under the credited line/),
    });
  });
});
