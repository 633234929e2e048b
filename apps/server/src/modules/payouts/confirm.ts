import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../../context';
import { addressHex, custodyRuntime, rawOf } from '../custody/service';
import { completeWithdrawal, processWithdrawal } from '../withdrawals/service';
import { quorumEvidence } from './evidence';
import { CUSTODY_NETWORK_OF, signerPays } from './policy';
import '../withdrawals/table';

/** A job run by hand (tests, the CLI) logs nothing unless given the app's logger. */
const QUIET = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * The payout watcher (a scheduler job): each sent withdrawal is completed once its transaction is
 * final on chain and is exactly the payment (status 1, a Transfer of the token from the hot address
 * to the withdrawal's address for its receive amount); a final revert sends it back to approved with
 * the reason. Nothing else moves a sent withdrawal: a missing or pending transaction waits (the
 * signer re-broadcasts or replaces it under the same nonce), a mismatch is noted for the admin.
 */
export async function confirmPayouts(
  ctx: AppContext,
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'> = QUIET,
): Promise<{ completed: number; reverted: number }> {
  const rows = await ctx.db
    .selectFrom('withdrawals')
    .select(['id', 'network', 'wallet_address', 'receive_amount', 'tx_hash', 'payout_note'])
    .where('status', '=', 'sent')
    .orderBy('id')
    .limit(200)
    .execute();
  const rt = custodyRuntime(ctx);
  let completed = 0;
  let reverted = 0;
  for (const w of rows) {
    if (!signerPays(ctx.config, w.network) || !w.tx_hash) continue;
    const net = rt.networks.get(CUSTODY_NETWORK_OF[w.network]);
    const to = w.network === 'TRON' ? addressHex('tron', w.wallet_address) : w.wallet_address.toLowerCase();
    if (!net || !to) continue;
    const hash = w.tx_hash;
    const ev = await quorumEvidence(net.verifiers, net.config.quorum, net.config, hash, {
      from: net.config.family === 'evm' ? ctx.config.payments.payouts.hot.evm : (addressHex('tron', ctx.config.payments.payouts.hot.tron ?? '') ?? undefined),
      to,
      raw: rawOf(BigInt(w.receive_amount), net.config.decimals),
    });
    if (ev.state === 'final') {
      await completeWithdrawal(ctx.db, w.id, { txHash: hash, from: 'sent' });
      completed++;
      log.info({ withdrawal: String(w.id), tx: hash, block: String(ev.blockNumber) }, 'payout completed on chain evidence');
    } else if (ev.state === 'reverted' && ev.final) {
      const note = `Transaction ${hash} reverted on chain`;
      await processWithdrawal(ctx.db, w.id, ['sent'], undefined, async (tx, locked) => {
        // A replacement reported since the read is another transaction: the next tick judges it.
        if (locked.tx_hash !== hash) return locked;
        return tx
          .updateTable('withdrawals')
          .set({ status: 'approved', payout_nonce: null, tx_hash: null, sent_at: null, payout_note: note })
          .where('id', '=', w.id)
          .returningAll()
          .executeTakeFirstOrThrow();
      });
      reverted++;
      log.warn({ withdrawal: String(w.id), tx: hash }, 'payout reverted: approved again');
    } else if (ev.state === 'mismatch') {
      const note = `Chain evidence does not match: ${ev.reason}`;
      if (w.payout_note !== note) {
        await ctx.db.updateTable('withdrawals').set({ payout_note: note }).where('id', '=', w.id).where('status', '=', 'sent').execute();
        log.error({ withdrawal: String(w.id), tx: hash, reason: ev.reason }, 'payout transaction is not the payment');
      }
    }
  }
  return { completed, reverted };
}

/** The job, when the signer pays (one process at a time, under the scheduler's lock). */
export function payoutJobs(ctx: AppContext) {
  if (ctx.config.payments.payouts.mode !== 'signer') return [];
  return [{ name: 'payouts:confirm', intervalMs: ctx.config.payments.custody.pollMs, run: confirmPayouts }];
}
