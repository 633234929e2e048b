import type { AppContext } from '../../../context';
import type { PaymentProvider } from '../table';
import type { PaymentGateway } from './gateway';
import { createChainGateway } from './chain';
import { createNowPaymentsGateway } from './nowpayments';
import { createSandboxGateway, type SandboxGateway } from './sandbox';

/** A sandbox transfer stays `confirming` this long, then `confirmed` as long again, then settles. */
export const DEFAULT_SANDBOX_STEP_MS = 2_000;

export interface PaymentsRuntime {
  /** the gateway new payments go to (PAYMENTS_GATEWAY) */
  active: PaymentGateway;
  sandbox: SandboxGateway;
  nowpayments: PaymentGateway | null;
  /** the self-custody gateway, with PAYMENTS_GATEWAY=chain */
  chain: PaymentGateway | null;
  /**
   * Nudges that run the sandbox chain job when a transfer's next step is due, so the screen moves
   * within seconds. Only a shortcut: the steps themselves are rows in sandbox_chain_events, applied
   * by the job whether or not a nudge fires. Cleared when the app closes.
   */
  timers: Set<NodeJS.Timeout>;
}

const runtimes = new WeakMap<AppContext, PaymentsRuntime>();

function build(ctx: AppContext, sandboxStepMs: number, sandboxNow?: () => number): PaymentsRuntime {
  const np = ctx.config.payments.nowpayments;
  const nowpayments = np.apiKey ? createNowPaymentsGateway({ apiUrl: np.apiUrl, apiKey: np.apiKey, email: np.email, password: np.password }) : null;
  const sandbox = createSandboxGateway(ctx.db, { stepMs: sandboxStepMs, ...(sandboxNow ? { now: sandboxNow } : {}) });
  const chain = ctx.config.payments.gateway === 'chain' ? createChainGateway(ctx) : null;
  const active = ctx.config.payments.gateway === 'nowpayments' && nowpayments ? nowpayments : (chain ?? sandbox);
  return { active, sandbox, nowpayments, chain, timers: new Set() };
}

/** The gateways of one running app (built once per context from its configuration). */
export function paymentsRuntime(ctx: AppContext): PaymentsRuntime {
  let rt = runtimes.get(ctx);
  if (!rt) {
    rt = build(ctx, DEFAULT_SANDBOX_STEP_MS);
    runtimes.set(ctx, rt);
  }
  return rt;
}

/** The gateway that owns a stored payment, or null when it is not configured in this process. */
export function gatewayFor(ctx: AppContext, provider: PaymentProvider): PaymentGateway | null {
  const rt = paymentsRuntime(ctx);
  return provider === 'sandbox' ? rt.sandbox : provider === 'chain' ? rt.chain : rt.nowpayments;
}

export function isSandboxActive(ctx: AppContext): boolean {
  return paymentsRuntime(ctx).active.provider === 'sandbox';
}

/**
 * Test and CLI knobs: the sandbox confirmation step (0 settles a transfer at once), the sandbox
 * chain's clock, or a stand-in gateway. Replaces the context's runtime.
 */
export function configurePayments(ctx: AppContext, opts: { sandboxStepMs?: number; sandboxNow?: () => number; gateway?: PaymentGateway }): PaymentsRuntime {
  disposePayments(ctx);
  const rt = build(ctx, opts.sandboxStepMs ?? DEFAULT_SANDBOX_STEP_MS, opts.sandboxNow);
  if (opts.gateway) {
    rt.active = opts.gateway;
    if (opts.gateway.provider === 'nowpayments') rt.nowpayments = opts.gateway;
  }
  runtimes.set(ctx, rt);
  return rt;
}

export function disposePayments(ctx: AppContext): void {
  const rt = runtimes.get(ctx);
  if (!rt) return;
  for (const t of rt.timers) clearTimeout(t);
  rt.timers.clear();
}
