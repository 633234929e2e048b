/** Response shapes shared by the server (what it sends) and the browser (what it reads). Spec section 3. */

export interface TAuthData {
  token?: string;
  access_id?: string;
  is_admin?: boolean;
}

export interface TUserDetail {
  deposit_balance: number;
  total_staked: number;
  total_income: number;
  roi_income: number;
  direct_referral_income: number;
  reward_income: number;
  balance: number;
}

export type TActivityRecordType = 'staking' | 'transaction' | 'withdrawal';
export interface TActivityItem {
  recordType: TActivityRecordType;
  id: string;
  amount_usd?: number;
  amount?: number;
  status: string;
  createdAt: string;
}

export interface TUserInfo {
  name: string;
  username: string;
  status: string;
  eligible_level: number;
  user_detail: TUserDetail;
  activity: TActivityItem[];
}

export interface TProfile {
  avatar: string | null;
  name: string;
  username: string;
  email: string;
  referral_id: string | null;
  status: string;
  active_date: string | null;
}

export interface TSettings {
  roi_income_percentage: number;
  direct_referral_percentage: number;
  stake_cap_percentage: number;
  withdrawal_fee_percentage: number;
}

export interface TWallet {
  user_id: string;
  balance: number;
  deposit_balance: number;
  total_staked: number;
  total_income: number;
  total_withdraw: number;
  total_directs: number;
  total_direct_business: number;
  total_network: number;
  team_business: { users: number; amount: number };
}

export interface TIncomeItem {
  id: string;
  createdAt: string;
  amount: number;
  note: string;
}

export interface TRewardLevel {
  level: number;
  self_investment: number;
  direct_investment: number;
  reward: number;
  achieved?: boolean;
}

export interface TStakeRow {
  id: string;
  createdAt: string;
  type: string;
  amount_usd: number;
  status: string;
}

export interface THistoryRecord {
  id: string;
  createdAt: string;
  amount: number;
  amount_usd: number;
  status: string;
  extra: string | null;
}

export interface TTransferRecord {
  id: string;
  createdAt: string;
  amount_usd: number;
  sender_id: string;
  type: 'deposit' | 'withdraw';
  Sender: { username: string };
  Receiver: { username: string };
}

export interface TTeamMember {
  avatar: string | null;
  username: string;
  name: string;
  createdAt: string;
  status: string;
}

export interface TTicket {
  id: string;
  type: string;
  message: string;
  status: string;
  createdAt: string;
  adminRemark: string | null;
}

export interface TCurrencyOption {
  name: string;
  symbol: string;
  iconUrl: string;
  chain: { name: string; shortName: string; symbol: string; iconUrl: string };
}

export interface TDemoPayment {
  paymentId: string;
  status: string;
  amount: number;
  payAmount: number;
  payCurrency: string;
  payAddress: string;
  timedout_at: string | null;
  extra: string | null;
  meta_data: { token: { iconUrl: string; symbol: string; name: string }; chain: { iconUrl: string; name: string } };
}

export interface TPendingPayment {
  id: string;
  payment_id: string;
  status: string;
  createdAt: string;
  amount: number;
}
