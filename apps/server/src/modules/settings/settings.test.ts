import { DEFAULT_REWARD_LEVELS, DEFAULT_SETTINGS, toMicro, usd } from '@app/core';
import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app';
import { createUser } from '../../test/factories';
import { inject } from '../../test/api';
import { income } from '@app/core/contracts/money';
import { user as userApi } from '@app/core/contracts/user';
import { getRewardLevels, getSettings, normalizePercent, updateSettings } from './service';

describe('settings and reward levels', () => {
  const t = useTestApp();

  it('starts with the defaults of the design, as exact decimal text, maintenance off', async () => {
    expect(await getSettings(t.db)).toEqual({
      roi_income_percentage: '0.5',
      stake_cap_percentage: '200',
      direct_referral_percentage: '5',
      withdrawal_fee_percentage: '5',
      maintenance_mode: false,
    });
    const { maintenance_mode: _m, ...rates } = await getSettings(t.db);
    expect(rates).toEqual(DEFAULT_SETTINGS);
  });

  it('seeds L1–L7 from the spec in micro-units', async () => {
    const levels = await getRewardLevels(t.db);
    expect(levels).toEqual([
      { level: 1, self_investment: usd(100), direct_investment: usd(1000), reward: usd(100) },
      { level: 2, self_investment: usd(100), direct_investment: usd(5000), reward: usd(500) },
      { level: 3, self_investment: usd(100), direct_investment: usd(10000), reward: usd(1000) },
      { level: 4, self_investment: usd(100), direct_investment: usd(25000), reward: usd(2500) },
      { level: 5, self_investment: usd(500), direct_investment: usd(50000), reward: usd(5000) },
      { level: 6, self_investment: usd(500), direct_investment: usd(100000), reward: usd(10000) },
      { level: 7, self_investment: usd(500), direct_investment: usd(250000), reward: usd(25000) },
    ]);
    // … which are the shared constants.
    expect(levels.map((l) => [l.level, l.self_investment, l.direct_investment, l.reward])).toEqual(
      DEFAULT_REWARD_LEVELS.map((l) => [l.level, toMicro(l.self_investment), toMicro(l.direct_investment), toMicro(l.reward)]),
    );
  });

  it('GET /api/user/settings answers the four percentages as numbers and hides maintenance_mode', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const res = await inject(t.app, userApi.settings, { token: u.token });
    expect(res.json()).toEqual({
      success: true,
      data: { settings: { roi_income_percentage: 0.5, direct_referral_percentage: 5, stake_cap_percentage: 200, withdrawal_fee_percentage: 5 } },
    });
    expect((await inject(t.app, userApi.settings)).statusCode).toBe(401);
  });

  it('keeps a changed rate exact (no float on the way) and shows it', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    try {
      const s = await updateSettings(t.db, { roi_income_percentage: '0.123456', direct_referral_percentage: '7.5' });
      expect(s).toMatchObject({ roi_income_percentage: '0.123456', direct_referral_percentage: '7.5' });
      const res = (await inject(t.app, userApi.settings, { token: u.token })).json();
      expect(res.data.settings).toMatchObject({ roi_income_percentage: 0.123456, direct_referral_percentage: 7.5 });
    } finally {
      await updateSettings(t.db, { roi_income_percentage: '0.5', direct_referral_percentage: '5' });
    }
  });

  it('writes percentages without trailing zeros', () => {
    expect(normalizePercent('0.500000')).toBe('0.5');
    expect(normalizePercent('200.000000')).toBe('200');
    expect(normalizePercent('10')).toBe('10');
    expect(normalizePercent('1.250000')).toBe('1.25');
  });

  it('GET /api/income/reward-levels lists the levels in USD, none achieved for a new user', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const res = (await inject(t.app, income.rewardLevels, { token: u.token })).json();
    expect(res.success).toBe(true);
    expect(res.data).toHaveLength(7);
    expect(res.data[0]).toEqual({ level: 1, self_investment: 100, direct_investment: 1000, reward: 100, achieved: false });
    expect(res.data[6]).toEqual({ level: 7, self_investment: 500, direct_investment: 250000, reward: 25000, achieved: false });
  });
});
