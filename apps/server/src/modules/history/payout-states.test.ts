import { history as historyApi, withdrawals } from '@app/core/contracts/money';
import { describe, expect, it } from 'vitest';
import { inject } from '../../test/api';
import { useTestApp } from '../../test/app';
import { createUser, fundIncome } from '../../test/factories';
import { completeWithdrawal } from '../withdrawals/service';
import '../withdrawals/table';

const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';
const HASH = `0x${'ab'.repeat(32)}`;

/**
 * A withdrawal the signer pays (issue 48) as its user reads it in the history: what approved and
 * sent mean, and the hash linked to the network's own explorer (the one deposits link to); a hash
 * an admin pasted for a manual payout keeps the app's default link (no explorer_url). The states
 * are written as the signer's routes write them (signer.test.ts drives those on anvil).
 */
describe('history: a withdrawal paid by the signer', () => {
  const t = useTestApp();

  it('says what each state means and links a signer-sent hash to the explorer', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    await fundIncome(t.db, u.id, 40);
    const made = await inject(t.app, withdrawals.create, { token: u.token, body: { amount_usd: 20, network: 'BSC', wallet_address: EVM, token: 'USDT' } });
    expect(made.statusCode).toBe(200);
    const id = BigInt(made.data().id);
    const newest = async () => {
      const res = await inject(t.app, historyApi.list, { token: u.token, query: { type: 'withdrawal' } });
      const r = res.data().data[0]!;
      return {
        status: r.status,
        ...(JSON.parse(r.extra!) as { status_description: string; explorer_url: string | null; last_transaction_hash: string | null }),
      };
    };
    expect(await newest()).toMatchObject({ status: 'pending', status_description: 'Waiting for review', explorer_url: null });

    await t.db.updateTable('withdrawals').set({ status: 'approved', approved_at: new Date() }).where('id', '=', id).execute();
    expect(await newest()).toMatchObject({ status: 'approved', status_description: 'Approved: the payout is being sent', explorer_url: null });

    await t.db.updateTable('withdrawals').set({ status: 'sent', payout_nonce: 7n, tx_hash: HASH, sent_at: new Date() }).where('id', '=', id).execute();
    expect(await newest()).toMatchObject({
      status: 'sent',
      status_description: 'Sent on chain: waiting for the transaction to be final',
      last_transaction_hash: HASH,
      explorer_url: `https://bscscan.com/tx/${HASH}`,
    });

    await completeWithdrawal(t.db, id, { txHash: HASH, from: 'sent' });
    expect(await newest()).toMatchObject({ status: 'completed', status_description: 'Paid to your wallet', explorer_url: `https://bscscan.com/tx/${HASH}` });
  });

  it('leaves a manual payout (never approved) to the default explorer', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    await fundIncome(t.db, u.id, 40);
    const made = await inject(t.app, withdrawals.create, { token: u.token, body: { amount_usd: 20, network: 'BSC', wallet_address: EVM, token: 'USDT' } });
    await completeWithdrawal(t.db, BigInt(made.data().id), { txHash: HASH });
    const res = await inject(t.app, historyApi.list, { token: u.token, query: { type: 'withdrawal' } });
    expect(JSON.parse(res.data().data[0]!.extra!)).toMatchObject({
      status_description: 'Paid to your wallet',
      last_transaction_hash: HASH,
      explorer_url: null,
    });
  });
});
