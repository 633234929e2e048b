import {
  DEFAULT_SETTINGS,
  STAKE_MIN_USD,
  STAKE_STEP_USD,
  TRANSFER_MIN_USD,
  WITHDRAW_FEE_PERCENT,
  WITHDRAW_MIN_USD,
  WITHDRAW_PAGE_MIN_BALANCE_USD,
  WITHDRAW_STEP_USD,
} from '@app/core/constants';

/**
 * The figures the landing page and the terms quote: the defaults of the admin-editable settings
 * (server design, section 4), kept in one place so that the two never quote different numbers.
 */
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
