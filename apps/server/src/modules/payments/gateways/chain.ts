import { custodyNetworkOf, PAYMENT_WINDOW_SECONDS } from '@app/core';
import type { AppContext } from '../../../context';
import { ensureAddress } from '../../custody/service';
import { chainPaymentId } from '../chain-deposits';
import { GatewayError, type CreatePaymentInput, type CreatedPayment, type PaymentGateway, type PaymentReport } from './gateway';
import '../table';

/**
 * The self-custody gateway (custody.md): a payment is a window on the user's permanent address
 * for the network. Nothing is asked of anyone at creation; the watcher (modules/custody) sees the
 * transfers, moves the payment on and credits the final ones, so getPayment only reads back what
 * the watcher stored.
 */
export function createChainGateway(ctx: AppContext): PaymentGateway {
  const custody = ctx.config.payments.custody;
  return {
    provider: 'chain',

    async createPayment(input: CreatePaymentInput): Promise<CreatedPayment> {
      const net = custodyNetworkOf(input.payCurrency);
      const configured = net && custody.networks.find((n) => n.network === net.network);
      if (!configured) throw new GatewayError('CURRENCY_UNAVAILABLE', `${input.payCurrency} is not configured`);
      if (input.userId === undefined) throw new Error('the chain gateway needs the user');
      const address = await ensureAddress(ctx, input.userId, configured.family);
      const providerPaymentId = chainPaymentId();
      return {
        providerPaymentId,
        payAddress: address.display,
        payAmount: input.priceAmountUsd,
        status: 'waiting',
        validUntil: new Date(Date.now() + PAYMENT_WINDOW_SECONDS * 1000),
        extra: { network: configured.network, required_confirmations: configured.confirmations },
      };
    },

    async getPayment(providerPaymentId: string): Promise<PaymentReport> {
      const row = await ctx.db
        .selectFrom('payments')
        .selectAll()
        .where('provider', '=', 'chain')
        .where('provider_payment_id', '=', providerPaymentId)
        .executeTakeFirst();
      if (!row) throw new GatewayError('NOT_FOUND', 'Payment not found', 404);
      return {
        providerPaymentId,
        status: row.status,
        actuallyPaid: row.actually_paid,
        payAmount: row.pay_amount,
        priceAmount: row.price_amount,
        payCurrency: row.pay_currency,
        txHash: row.tx_hash,
        confirmations: row.confirmations,
        parentPaymentId: null,
        orderId: row.order_id,
        payAddress: row.pay_address,
      };
    },

    async listCurrencies() {
      return custody.networks.map((n) => n.payCurrency);
    },

    async minAmountUsd() {
      return null;
    },
  };
}
