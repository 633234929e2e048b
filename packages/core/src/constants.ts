/** Business constants of the product spec, section 9. Server-side defaults of editable settings live here too. */
export const CURRENCY = 'USDT';

export const CHAINS = [
  { code: 'usdtbsc', name: 'BSC', fullName: 'Binance Smart Chain', network: 'BSC (BEP20)', withdrawNetwork: 'BSC' },
  { code: 'usdtmatic', name: 'Polygon', fullName: 'Polygon', network: 'Polygon (MATIC)', withdrawNetwork: 'POLYGON' },
  { code: 'usdttrc20', name: 'Tron', fullName: 'Tron', network: 'TRON (TRC20)', withdrawNetwork: 'TRON' },
] as const;
export type TPayCurrency = (typeof CHAINS)[number]['code'];
export const PAY_CURRENCIES = CHAINS.map((c) => c.code) as [TPayCurrency, ...TPayCurrency[]];

/**
 * The networks of the self-custody `chain` gateway (custody.md): the pay currency each one
 * receives, its address family (one EVM address serves BSC and Polygon) and where a transaction
 * is shown to the user.
 */
export const CUSTODY_NETWORKS = [
  { network: 'bsc', payCurrency: 'usdtbsc', family: 'evm', explorerTx: 'https://bscscan.com/tx/' },
  { network: 'polygon', payCurrency: 'usdtmatic', family: 'evm', explorerTx: 'https://polygonscan.com/tx/' },
  { network: 'tron', payCurrency: 'usdttrc20', family: 'tron', explorerTx: 'https://tronscan.org/#/transaction/' },
] as const satisfies readonly { network: string; payCurrency: TPayCurrency; family: 'evm' | 'tron'; explorerTx: string }[];
export type TCustodyNetwork = (typeof CUSTODY_NETWORKS)[number]['network'];
export type TAddressFamily = (typeof CUSTODY_NETWORKS)[number]['family'];
export const custodyNetworkOf = (payCurrency: string) => CUSTODY_NETWORKS.find((n) => n.payCurrency === payCurrency);
/** The explorer page of a transaction on a custody network (null for an unknown network). */
export function explorerTxUrl(network: string, txHash: string): string | null {
  const n = CUSTODY_NETWORKS.find((c) => c.network === network);
  return n ? `${n.explorerTx}${txHash}` : null;
}

export const USERNAME_LENGTH = 9;
export const REFERRAL_ID_LENGTH = 9;
export const LOOKUP_DEBOUNCE_MS = 500;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 30;

export const DEPOSIT_MIN_USD = 1;
export const DEMO_DEPOSIT_MIN_USD = 10;
export const DEMO_DEPOSIT_STEP_USD = 10;
export const DEMO_DEPOSIT_DEFAULT_USD = 10;
export const PAYMENT_WINDOW_SECONDS = 300;
export const PAYMENT_POLL_SECONDS = 30;
export const REDIRECT_DELAY_SECONDS = 5;

export const STAKE_MIN_USD = 50;
export const STAKE_STEP_USD = 10;
export const WITHDRAW_MIN_USD = 10;
export const WITHDRAW_STEP_USD = 10;
export const WITHDRAW_FEE_PERCENT = 5;
export const WITHDRAW_PAGE_MIN_BALANCE_USD = 50;
export const WITHDRAW_VALIDATE_DELAY_MS = 300;
export const TRANSFER_MIN_USD = 10;
/** A transfer to an account whose e-mail nobody has proven yet (server design, section 9: unverified accounts hold no money). */
export const RECEIVER_UNVERIFIED_MESSAGE = 'This user has not verified their e-mail yet';
/** Shown for a team member who has not verified the e-mail yet: the username is not shown before that. */
export const UNVERIFIED_MEMBER_LABEL = 'Not verified yet';
export const WALLET_WITHDRAW_MIN_USD = 10;

export const SUPPORT_MESSAGE_MIN = 10;
export const SUPPORT_MESSAGE_MAX = 1000;
/** A user has at most this many open tickets (waiting for support); a create or a reopening reply past it is refused. */
export const SUPPORT_MAX_OPEN_TICKETS = 20;
/** Replies a user may add to one ticket (support's own replies do not count); past it, a new ticket. */
export const SUPPORT_MAX_USER_REPLIES = 50;
export const SUPPORT_SUBJECTS = ['general', 'technical', 'withdrawal', 'deposit', 'staking'] as const;

export const OTP_LENGTH = 6;
export const OTP_RESEND_SECONDS = 300;
export const OTP_VALID_SECONDS = 600;
export const OTP_MAX_TRIES = 5;

export const PAGE_SIZE = 10;
export const MAX_PAGE_SIZE = 100;

export const QR_SIZE = 200;
export const TOAST_DURATION_MS = 4000;
export const TOAST_VISIBLE = 3;
export const NAVBAR_SCROLL_PX = 20;

/** Defaults of the admin-editable settings (server design, section 4). Percentages as decimal text. */
export const DEFAULT_SETTINGS = {
  roi_income_percentage: '0.5',
  stake_cap_percentage: '200',
  direct_referral_percentage: '5',
  withdrawal_fee_percentage: '5',
} as const;

/** Reward levels L1–L7: self investment, direct investment, reward (USD). */
export const DEFAULT_REWARD_LEVELS = [
  { level: 1, self_investment: 100, direct_investment: 1000, reward: 100 },
  { level: 2, self_investment: 100, direct_investment: 5000, reward: 500 },
  { level: 3, self_investment: 100, direct_investment: 10000, reward: 1000 },
  { level: 4, self_investment: 100, direct_investment: 25000, reward: 2500 },
  { level: 5, self_investment: 500, direct_investment: 50000, reward: 5000 },
  { level: 6, self_investment: 500, direct_investment: 100000, reward: 10000 },
  { level: 7, self_investment: 500, direct_investment: 250000, reward: 25000 },
] as const;

export const INCOME_TYPES = { roi: 1, referral: 2, reward: 3 } as const;
export const HISTORY_TYPES = ['transaction', 'withdrawal', 'transfer'] as const;
export const WITHDRAW_NETWORKS = ['POLYGON', 'BSC', 'TRON'] as const;
export type TWithdrawNetwork = (typeof WITHDRAW_NETWORKS)[number];
export const TRANSFER_TYPES = ['deposit', 'withdraw'] as const;
