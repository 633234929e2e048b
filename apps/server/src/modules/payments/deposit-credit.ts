import { CHAINS } from '@app/core';
import type { Tx } from '../../db/types';
import * as ledger from '../ledger/service';
import { queueMails, usdtText } from '../mail/service';

export interface DepositCredit {
  key: string;
  userId: bigint;
  amount: bigint;
  payCurrency: string;
  memo: string;
}

/**
 * The ledger side of every deposit credit, whichever gateway: gateway clearing → the user's
 * `deposit` balance under `key`, the user's deposit total and the credited mail, all in the
 * caller's transaction. The hosted gateways come through creditDeposit (key by payment and
 * cumulative total); the chain gateway keys each transfer `chain:<network>:<tx>:<log index>`.
 * Returns false when the key was already posted (nothing written).
 */
export async function postDepositCredit(tx: Tx, c: DepositCredit): Promise<boolean> {
  return (await postDepositCredits(tx, [c]))[0]!;
}

/**
 * postDepositCredit for many credits at once (the chain watcher's batch): one ledger call, one
 * statement for the totals and one for the mails, whatever their number. Returns, in order,
 * whether each was written (false: its key was posted before).
 */
export async function postDepositCredits(tx: Tx, credits: DepositCredit[]): Promise<boolean[]> {
  const res = await ledger.postMany(
    tx,
    credits.map((c) => ({
      key: c.key,
      kind: 'deposit',
      userId: c.userId,
      memo: c.memo,
      postings: [
        { account: ledger.systemAccount(ledger.SYSTEM.gatewayClearing), amount: -c.amount },
        { account: ledger.userAccount(c.userId, 'deposit'), amount: c.amount },
      ],
    })),
  );
  const posted = credits.filter((_, i) => res[i]!.created);
  await ledger.bumpTotalsMany(
    tx,
    'total_deposited',
    posted.map((c) => ({ userId: c.userId, amount: c.amount })),
  );
  // In the crediting transaction: the mail exists exactly when the money does (server design, section 9).
  await queueMails(
    tx,
    posted.map((c) => ({
      userId: c.userId,
      kind: 'deposit_credited' as const,
      payload: { amount: usdtText(c.amount), network: CHAINS.find((ch) => ch.code === c.payCurrency)?.network ?? c.payCurrency.toUpperCase() },
    })),
  );
  return res.map((r) => r.created);
}
