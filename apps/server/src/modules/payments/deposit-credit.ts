import { CHAINS } from '@app/core';
import type { Tx } from '../../db/types';
import * as ledger from '../ledger/service';
import { queueMail, usdtText } from '../mail/service';

/**
 * The ledger side of every deposit credit, whichever gateway: gateway clearing → the user's
 * `deposit` balance under `key`, the user's deposit total and the credited mail, all in the
 * caller's transaction. The hosted gateways come through creditDeposit (key by payment and
 * cumulative total); the chain gateway keys each transfer `chain:<network>:<tx>:<log index>`.
 * Returns false when the key was already posted (nothing written).
 */
export async function postDepositCredit(tx: Tx, c: { key: string; userId: bigint; amount: bigint; payCurrency: string; memo: string }): Promise<boolean> {
  const res = await ledger.post(tx, {
    key: c.key,
    kind: 'deposit',
    userId: c.userId,
    memo: c.memo,
    postings: [
      { account: ledger.systemAccount(ledger.SYSTEM.gatewayClearing), amount: -c.amount },
      { account: ledger.userAccount(c.userId, 'deposit'), amount: c.amount },
    ],
  });
  if (!res.created) return false;
  await ledger.bumpTotals(tx, c.userId, { total_deposited: c.amount });
  // In the crediting transaction: the mail exists exactly when the money does (server design, section 9).
  const network = CHAINS.find((ch) => ch.code === c.payCurrency)?.network ?? c.payCurrency.toUpperCase();
  await queueMail(tx, c.userId, 'deposit_credited', { amount: usdtText(c.amount), network });
  return true;
}
