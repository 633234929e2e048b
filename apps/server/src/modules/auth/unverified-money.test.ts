import { usd } from '@app/core';
import { auth as authApi } from '@app/core/contracts/auth';
import { team, transfers } from '@app/core/contracts/money';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app';
import { emailsOf, inject } from '../../test/api';
import { createUser, fundDeposit, fundIncome, type TestUser } from '../../test/factories';
import { verifyLedgerAfterEach } from '../../test/ledger-check';
import * as ledger from '../ledger/service';
import { deleteStaleUnverified } from './unverified';

/**
 * The mailbox wins, for 10 USDT (attack report): the attacker signed the victim's e-mail up under
 * the attacker's own referral link, read the new member's username in my-team, and sent it 10 USDT;
 * an unverified account holding money was never replaced nor cleaned up, so the owner's sign-up
 * answered 409 for good. Each test failed before the fix.
 */
describe('an unverified account takes no money and holds none', () => {
  const t = useTestApp({ RATE_LIMIT_AUTH_PER_MIN: '100000', RATE_LIMIT_MONEY_PER_MIN: '100000' });
  verifyLedgerAfterEach(() => t.db);
  const email = emailsOf('squat-money');

  /** The attacker's squat: the victim's e-mail signed up under the attacker's referral link. */
  async function squat(attacker: TestUser, victim = email()) {
    const res = await inject(t.app, authApi.register, { body: { name: 'Squatter', email: victim, password: 'Squat1234', referral_id: attacker.username } });
    expect(res.statusCode, res.body).toBe(200);
    const row = await t.db.selectFrom('users').select(['id', 'username']).where('email', '=', victim).executeTakeFirstOrThrow();
    return { email: victim, ...row };
  }

  /**
   * A transfer the squat received before the fix (the route refuses one now): the transfer row and
   * its entry as app_transfer wrote them, through the ledger's one posting implementation.
   */
  async function legacyTransfer(sender: TestUser, receiverId: bigint, amountUsd: number, type: 'deposit' | 'withdraw' = 'deposit') {
    const kind = type === 'deposit' ? 'deposit' : 'income';
    await t.db.transaction().execute(async (tx) => {
      const { id } = await tx
        .insertInto('transfers')
        .values({ sender_id: sender.id, receiver_id: receiverId, type, amount: usd(amountUsd) })
        .returning('id')
        .executeTakeFirstOrThrow();
      await ledger.post(tx, {
        key: `transfer:${id}`,
        kind: 'transfer',
        userId: sender.id,
        memo: `Transfer #${id}`,
        postings: [
          { account: ledger.userAccount(sender.id, kind), amount: -usd(amountUsd) },
          { account: ledger.userAccount(receiverId, kind), amount: usd(amountUsd) },
        ],
      });
    });
  }

  const reversals = (userId: bigint) =>
    sql<{ kind: string; idempotency_key: string; amount: bigint }>`
      select e.kind, e.idempotency_key, p.amount from ledger_entries e join ledger_postings p on p.entry_id = e.id
      join ledger_accounts a on a.id = p.account_id
      where a.user_id = ${userId} and e.kind like 'unverified_%' order by e.id`
      .execute(t.db)
      .then((r) => r.rows.map((x) => ({ ...x, amount: BigInt(x.amount) })));

  it("1. refuses a transfer to an unverified account: 400 'This user has not verified their e-mail yet' on the username field, nothing moves", async () => {
    const attacker = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, attacker.id, 100);
    await fundIncome(t.db, attacker.id, 100);
    const s = await squat(attacker);
    for (const type of ['deposit', 'withdraw'] as const) {
      const before = { entries: (await ledger.verify(t.db)).entries, transfers: await t.db.selectFrom('transfers').select('id').execute() };
      const res = await inject(t.app, transfers.create, { token: attacker.token, body: { username: s.username, amount_usd: 10, type } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        success: false,
        message: 'This user has not verified their e-mail yet',
        errors: { username: 'This user has not verified their e-mail yet' },
      });
      expect({ entries: (await ledger.verify(t.db)).entries, transfers: await t.db.selectFrom('transfers').select('id').execute() }).toEqual(before);
    }
    expect(await ledger.getBalances(t.db, s.id)).toEqual({ deposit: 0n, income: 0n });
    expect(await ledger.getBalances(t.db, attacker.id)).toEqual({ deposit: usd(100), income: usd(100) });
    // Once the owner proves the address, the account takes transfers as any other.
    await t.db.updateTable('users').set({ email_verified_at: new Date() }).where('id', '=', s.id).execute();
    const ok = await inject(t.app, transfers.create, { token: attacker.token, body: { username: s.username, amount_usd: 10, type: 'deposit' } });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it("2. the owner's sign-up replaces an unverified account that holds money: 200, each transfer back at its sender by a reversal entry, the rest to suspense", async () => {
    const attacker = await createUser(t.db, t.ctx.secret);
    const other = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, attacker.id, 100);
    await fundIncome(t.db, other.id, 100);
    const s = await squat(attacker);
    await legacyTransfer(attacker, s.id, 10);
    await legacyTransfer(other, s.id, 25, 'withdraw');
    // Money whose origin no transfer explains (e.g. test funding): it goes to the suspense account.
    await fundDeposit(t.db, s.id, 3);
    const suspenseBefore = await ledger.getSystemBalance(t.db, ledger.SYSTEM.suspense);

    const mine = await inject(t.app, authApi.register, { body: { name: 'Victor Owner', email: s.email, password: 'Victim123' } });
    expect(mine.statusCode, mine.body).toBe(200);

    expect(await ledger.getBalances(t.db, attacker.id)).toEqual({ deposit: usd(100), income: 0n });
    expect(await ledger.getBalances(t.db, other.id)).toEqual({ deposit: 0n, income: usd(100) });
    expect(await ledger.getBalances(t.db, s.id)).toEqual({ deposit: 0n, income: 0n });
    expect((await ledger.getSystemBalance(t.db, ledger.SYSTEM.suspense)) - suspenseBefore).toBe(usd(3));
    const rev = await reversals(s.id);
    expect(rev.map((r) => [r.kind, r.amount])).toEqual([
      ['unverified_transfer_reversal', -usd(10)],
      ['unverified_suspense', -usd(3)],
      ['unverified_transfer_reversal', -usd(25)],
    ]);
    expect(rev[0]!.idempotency_key).toMatch(/^unverified-reversal:transfer:\d+$/);
    // The squat's row is no one's account any more: not the owner's, not in the attacker's team, no sign-in.
    const owner = await t.db.selectFrom('users').select(['id', 'name', 'referrer_id']).where('email', '=', s.email).executeTakeFirstOrThrow();
    expect(owner).toMatchObject({ name: 'Victor Owner', referrer_id: null });
    expect(owner.id).not.toBe(s.id);
    expect(await t.db.selectFrom('users').select('id').where('referrer_id', '=', attacker.id).execute()).toEqual([]);
    expect((await inject(t.app, authApi.login, { body: { email: s.email, password: 'Squat1234' } })).statusCode).toBe(401);
  });

  it('2. the 24 h clean-up removes an unverified account that received a transfer, and gives the money back', async () => {
    const attacker = await createUser(t.db, t.ctx.secret);
    await fundDeposit(t.db, attacker.id, 50);
    const s = await squat(attacker);
    await legacyTransfer(attacker, s.id, 10);
    await t.db
      .updateTable('users')
      .set({ created_at: new Date(Date.now() - 25 * 3_600_000) })
      .where('id', '=', s.id)
      .execute();
    expect(await deleteStaleUnverified(t.db)).toBeGreaterThanOrEqual(1);
    expect(await ledger.getBalances(t.db, attacker.id)).toEqual({ deposit: usd(50), income: 0n });
    expect(await ledger.getBalances(t.db, s.id)).toEqual({ deposit: 0n, income: 0n });
    expect(await t.db.selectFrom('users').select('id').where('email', '=', s.email).executeTakeFirst()).toBeUndefined();
    // Done once: the next run finds nothing of it, and the e-mail is free.
    expect(await deleteStaleUnverified(t.db)).toBe(0);
    expect((await inject(t.app, authApi.register, { body: { name: 'Victor Owner', email: s.email, password: 'Victim123' } })).statusCode).toBe(200);
  });

  it('4. my-team shows an unverified member without its username, the name as before', async () => {
    const attacker = await createUser(t.db, t.ctx.secret);
    const s = await squat(attacker);
    const res = await inject(t.app, team.directs, { token: attacker.token });
    expect(res.statusCode, res.body).toBe(200);
    const [member] = res.data().data;
    expect(member).toMatchObject({ username: null });
    expect(JSON.stringify(res.json())).not.toContain(s.username);
    // Verified, the member shows as before.
    await t.db.updateTable('users').set({ email_verified_at: new Date() }).where('id', '=', s.id).execute();
    expect((await inject(t.app, team.directs, { token: attacker.token })).data().data[0]).toMatchObject({ username: s.username });
  });
});
