/**
 * GET /api/user/wallet's data for a user with nothing yet, as the spec shapes it: every amount
 * and count 0. The wallet test checks a new user's answer against it; the contract test starts
 * its right and wrong answers from it.
 */
export const newUserWallet = (user_id: string) => ({
  user_id,
  balance: 0,
  deposit_balance: 0,
  total_staked: 0,
  total_income: 0,
  total_withdraw: 0,
  total_directs: 0,
  total_direct_business: 0,
  total_network: 0,
  team_business: { users: 0, amount: 0 },
});
