import { randomBytes } from 'node:crypto';
import { PAY_CURRENCIES, PAYMENT_WINDOW_SECONDS, toChecksumAddress, tronAddressFromBytes, type TPayCurrency } from '@app/core';
import type { DB, Tx } from '../../../db/types';
import { AppError } from '../../../lib/errors';
import type { PaymentStatus } from '../status';
import { GatewayError, type CreatePaymentInput, type CreatedPayment, type PaymentGateway, type PaymentReport } from './gateway';
import '../table';

/** Confirmations a sandbox transfer needs, per chain (shown as `confirmations_received`). */
const REQUIRED_CONFIRMATIONS: Record<TPayCurrency, number> = { usdtbsc: 15, usdtmatic: 30, usdttrc20: 19 };

export interface SandboxOptions {
  /** how long a transfer stays `confirming`, then `confirmed`, before it is final (0: final at once) */
  stepMs: number;
  now?: () => number;
}

/** A fresh address per payment: EIP-55 checksummed for the EVM chains, base58check (0x41) for TRON. */
export function sandboxAddress(currency: TPayCurrency): string {
  if (currency === 'usdttrc20') {
    const payload = new Uint8Array(21);
    payload[0] = 0x41;
    payload.set(randomBytes(20), 1);
    return tronAddressFromBytes(payload);
  }
  return toChecksumAddress(`0x${randomBytes(20).toString('hex')}`);
}

function sandboxTxHash(currency: string): string {
  const hex = randomBytes(32).toString('hex');
  return currency === 'usdttrc20' ? hex : `0x${hex}`;
}

export interface SandboxGateway extends PaymentGateway {
  readonly provider: 'sandbox';
  /**
   * Simulates a transfer of `amount` micro-USDT to the payment's address. `guard` runs first in the
   * transfer's transaction (the caller locks and checks its payment there, so a transfer and a
   * cancel of that payment land in one order or the other).
   */
  transfer(providerPaymentId: string, amount: bigint, guard?: (tx: Tx) => Promise<void>): Promise<void>;
  /** Ends the confirmation wait now (tests, and the CLI's `sandbox:pay --settle`). */
  settle(providerPaymentId: string): Promise<void>;
  readonly stepMs: number;
  /** the chain's clock (injectable in tests), in ms since the epoch */
  now(): number;
}

/**
 * A built-in simulated chain so the product works offline (server design, section 6). 1 USDT =
 * 1 USD, so the amount to pay is the price. The chain's state lives in the database and a
 * transfer's progress follows from its timestamps, so any process reads the same status.
 */
export function createSandboxGateway(db: DB, opts: SandboxOptions): SandboxGateway {
  const now = opts.now ?? Date.now;
  const find = async (id: string) => {
    if (!/^\d{1,18}$/.test(id)) return undefined;
    return db.selectFrom('sandbox_chain_payments').selectAll().where('id', '=', BigInt(id)).executeTakeFirst();
  };

  return {
    provider: 'sandbox',
    stepMs: opts.stepMs,
    now,

    async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
      const validUntil = new Date(now() + PAYMENT_WINDOW_SECONDS * 1000);
      const row = await db
        .insertInto('sandbox_chain_payments')
        .values({
          order_id: input.orderId,
          pay_currency: input.payCurrency,
          pay_address: sandboxAddress(input.payCurrency),
          price_amount: input.priceAmountUsd,
          pay_amount: input.priceAmountUsd,
          valid_until: validUntil,
        })
        .returning(['id', 'pay_address', 'pay_amount'])
        .executeTakeFirstOrThrow();
      return { providerPaymentId: String(row.id), payAddress: row.pay_address, payAmount: row.pay_amount, status: 'waiting', validUntil };
    },

    async getPayment(providerPaymentId: string): Promise<PaymentReport> {
      const row = await find(providerPaymentId);
      if (!row) throw new GatewayError('NOT_FOUND', 'Payment not found', 404);
      const t = now();
      const received = BigInt(row.received);
      let status: PaymentStatus;
      let confirmations = 0;
      const required = REQUIRED_CONFIRMATIONS[row.pay_currency as TPayCurrency] ?? 12;
      if (received === 0n) {
        status = t > row.valid_until.getTime() ? 'expired' : 'waiting';
      } else if (row.confirmed_at && t < row.confirmed_at.getTime()) {
        status = 'confirming';
        const since = t - (row.last_transfer_at?.getTime() ?? t);
        confirmations = Math.min(required - 1, 1 + Math.floor((since / Math.max(1, opts.stepMs)) * (required - 1)));
      } else if (row.settled_at && t < row.settled_at.getTime()) {
        status = 'confirmed';
        confirmations = required;
      } else {
        status = received >= BigInt(row.pay_amount) ? 'finished' : 'partially_paid';
        confirmations = required;
      }
      return {
        providerPaymentId,
        status,
        actuallyPaid: received,
        payAmount: BigInt(row.pay_amount),
        priceAmount: BigInt(row.price_amount),
        payCurrency: row.pay_currency,
        txHash: row.tx_hash,
        confirmations,
        parentPaymentId: null,
        orderId: row.order_id,
        payAddress: row.pay_address,
      };
    },

    async listCurrencies() {
      return [...PAY_CURRENCIES];
    },

    async minAmountUsd() {
      return null;
    },

    async transfer(providerPaymentId: string, amount: bigint, guard?: (tx: Tx) => Promise<void>): Promise<void> {
      if (amount <= 0n) throw new AppError('VALIDATION', 'Amount must be greater than 0', { amount: 'Amount must be greater than 0' });
      const row = await find(providerPaymentId);
      if (!row) throw new GatewayError('NOT_FOUND', 'Payment not found', 404);
      // The transfer and its future steps are written together: whoever runs the chain job next
      // (this process, another one, or this one after a restart) applies the steps when due.
      await db.transaction().execute(async (tx) => {
        await guard?.(tx);
        // Its time is taken once the guard's lock is held: the chain says when it really landed.
        const t = now();
        await tx
          .updateTable('sandbox_chain_payments')
          .set((eb) => ({
            received: eb('received', '+', amount),
            tx_hash: sandboxTxHash(row.pay_currency),
            last_transfer_at: new Date(t),
            confirmed_at: new Date(t + opts.stepMs),
            settled_at: new Date(t + 2 * opts.stepMs),
          }))
          .where('id', '=', row.id)
          .execute();
        await tx
          .insertInto('sandbox_chain_events')
          .values([
            { chain_payment_id: row.id, kind: 'confirm', due_at: new Date(t + opts.stepMs) },
            { chain_payment_id: row.id, kind: 'settle', due_at: new Date(t + 2 * opts.stepMs) },
          ])
          .execute();
      });
    },

    async settle(providerPaymentId: string): Promise<void> {
      const row = await find(providerPaymentId);
      if (!row) throw new GatewayError('NOT_FOUND', 'Payment not found', 404);
      const at = new Date(now());
      await db.transaction().execute(async (tx) => {
        await tx.updateTable('sandbox_chain_payments').set({ confirmed_at: at, settled_at: at }).where('id', '=', row.id).where('received', '>', 0n).execute();
        await tx
          .updateTable('sandbox_chain_events')
          .set({ due_at: at })
          .where('chain_payment_id', '=', row.id)
          .where('processed_at', 'is', null)
          .where('due_at', '>', at)
          .execute();
      });
    },
  };
}
