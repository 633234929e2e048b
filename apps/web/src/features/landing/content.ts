import {
  DEFAULT_REWARD_LEVELS,
  DEFAULT_SETTINGS,
  STAKE_MIN_USD,
  STAKE_STEP_USD,
  TRANSFER_MIN_USD,
  WITHDRAW_FEE_PERCENT,
  WITHDRAW_MIN_USD,
  WITHDRAW_PAGE_MIN_BALANCE_USD,
  WITHDRAW_STEP_USD,
} from '@app/core/constants';

/** The figures the landing page quotes: the defaults of the admin-editable settings (server design, section 4). */
export const RATES = {
  dailyRoiPercent: Number(DEFAULT_SETTINGS.roi_income_percentage),
  capPercent: Number(DEFAULT_SETTINGS.stake_cap_percentage),
  referralPercent: Number(DEFAULT_SETTINGS.direct_referral_percentage),
  withdrawFeePercent: WITHDRAW_FEE_PERCENT,
  stakeMin: STAKE_MIN_USD,
  stakeStep: STAKE_STEP_USD,
  withdrawMin: WITHDRAW_MIN_USD,
  withdrawStep: WITHDRAW_STEP_USD,
  /** Withdrawals open from this balance (spec section 8); withdrawMin is the smallest amount. */
  withdrawOpensAt: WITHDRAW_PAGE_MIN_BALANCE_USD,
  transferMin: TRANSFER_MIN_USD,
  daysToCap: Number(DEFAULT_SETTINGS.stake_cap_percentage) / Number(DEFAULT_SETTINGS.roi_income_percentage),
} as const;

export const REWARD_LEVELS = DEFAULT_REWARD_LEVELS;
export const TOP_REWARD = DEFAULT_REWARD_LEVELS[DEFAULT_REWARD_LEVELS.length - 1]!.reward;

/** Navbar and footer links: the element ids are the spec's anchors. */
export const SECTIONS = [
  { id: 'Home', label: 'Home' },
  { id: 'HowStart', label: 'How to Start' },
  { id: 'chains', label: 'Exchanges' },
  { id: 'wallet', label: 'Wallets' },
  { id: 'About', label: 'About' },
  { id: 'defi', label: 'DeFi' },
  { id: 'Roadmap', label: 'Roadmap' },
  { id: 'FAQ', label: 'FAQ' },
] as const;

export type Chain = { id: 'bnb' | 'polygon' | 'tron'; name: string; standard: string; text: string };
export const CHAINS: Chain[] = [
  { id: 'bnb', name: 'BNB Smart Chain', standard: 'BEP20', text: 'Low fees and fast blocks: the most common way to move USDT between exchanges and wallets.' },
  { id: 'polygon', name: 'Polygon', standard: 'Polygon PoS', text: 'An Ethereum scaling network with quick confirmations and transfer fees of a few cents.' },
  { id: 'tron', name: 'Tron', standard: 'TRC20', text: 'The network that carries the most USDT by volume, offered by nearly every exchange.' },
];

/** Brand names with a colour for a monogram tile: no third-party images are loaded. */
export type Brand = { name: string; color: string; ink?: string };
export const EXCHANGES: Brand[] = [
  { name: 'Binance', color: '#f0b90b', ink: '#1e2026' },
  { name: 'OKX', color: '#f4f4f5', ink: '#000' },
  { name: 'Bybit', color: '#f7a600', ink: '#17181e' },
  { name: 'KuCoin', color: '#23af91' },
  { name: 'Gate.io', color: '#2354e6' },
  { name: 'HTX', color: '#1b7fe8' },
  { name: 'Bitget', color: '#00c4d6', ink: '#06242a' },
  { name: 'MEXC', color: '#1c6ef2' },
  { name: 'Kraken', color: '#5741d9' },
  { name: 'Coinbase', color: '#0052ff' },
];

export type WalletApp = Brand & { chains: ('BSC' | 'Polygon' | 'Tron')[] };
export const WALLETS: WalletApp[] = [
  { name: 'MetaMask', color: '#f6851b', chains: ['BSC', 'Polygon'] },
  { name: 'Trust Wallet', color: '#3375bb', chains: ['BSC', 'Polygon', 'Tron'] },
  { name: 'TronLink', color: '#2d6cf6', chains: ['Tron'] },
  { name: 'SafePal', color: '#4a21ef', chains: ['BSC', 'Polygon', 'Tron'] },
  { name: 'Ledger', color: '#f4f4f5', ink: '#000', chains: ['BSC', 'Polygon', 'Tron'] },
  { name: 'OKX Wallet', color: '#27272a', chains: ['BSC', 'Polygon', 'Tron'] },
  { name: 'Coinbase Wallet', color: '#0052ff', chains: ['BSC', 'Polygon'] },
  { name: 'Bitget Wallet', color: '#00c4d6', ink: '#06242a', chains: ['BSC', 'Polygon', 'Tron'] },
];

export const ROADMAP = [
  { when: 'Nov 2024', title: 'Launch', text: 'USDT Stake opens with staking, daily ROI and deposits on BNB Smart Chain.', done: true },
  {
    when: 'Dec 2024',
    title: 'Polygon and Tron',
    text: 'Deposits and withdrawals on two more networks, each with its own QR code and address checks.',
    done: true,
  },
  { when: 'Jan 2025', title: 'Referral income', text: 'A personal referral link and 5% of every stake your direct referrals make.', done: true },
  { when: 'Feb 2025', title: 'Reward levels', text: 'Seven reward levels, L1 to L7, paid once each as you and your team grow.', done: true },
  { when: 'Mar 2025', title: 'Transfers and team', text: 'Send USDT to other members by username and follow your team from the app.', done: true },
  { when: 'Q2 2025', title: 'Mobile-first app', text: 'A faster app built for phones, clearer income reports and more support options.', done: false },
] as const;
