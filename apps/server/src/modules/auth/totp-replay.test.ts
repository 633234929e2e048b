import { describe, expect, it } from 'vitest';
import { useTestApp } from '../../test/app';
import { createUser, fundIncome } from '../../test/factories';
import { inject } from '../../test/api';
import { withdrawals } from '@app/core/contracts/money';
import { security } from '@app/core/contracts/security';
import { user as userApi } from '@app/core/contracts/user';
import { totpAt } from './totp';

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

// Review finding: ten parallel withdrawals with the same valid code gave 1 × 200, then 400s and
// 429s: the replays counted as wrong codes and locked the user's own second factor for 15 minutes
// (now: they would spend the account's guess budget).
describe('a replayed two-factor code', () => {
  const t = useTestApp();

  it('is refused without counting as a wrong code, so a double submit cannot lock the second factor', async () => {
    const u = await createUser(t.db, t.ctx.secret);
    const { secret } = (await inject(t.app, security.setup2fa, { token: u.token, body: {} })).data() as { secret: string };
    // The codes below are for steps around this one (±1 accepted): start well inside a step.
    if (Date.now() % 30_000 > 25_000) await new Promise((r) => setTimeout(r, 30_000 - (Date.now() % 30_000) + 100));
    const step = Math.floor(Date.now() / 30_000);
    expect((await inject(t.app, security.enable2fa, { token: u.token, body: { code: totpAt(secret, (step - 1) * 30_000) } })).statusCode).toBe(200);
    await fundIncome(t.db, u.id, 200);

    const body = { amount_usd: 10, network: 'BSC', wallet_address: ADDRESS, token: 'USDT', totp_code: totpAt(secret, step * 30_000) };
    const answers = await Promise.all(Array.from({ length: 10 }, () => inject(t.app, withdrawals.create, { token: u.token, body })));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([200, 400, 400, 400, 400, 400, 400, 400, 400, 400]);
    // Issue 46: the refusal says why (the code was right, but just used), not that it was wrong.
    for (const a of answers.filter((x) => x.statusCode === 400)) expect(a.json().message).toBe('This code was just used. Wait for the next one.');
    expect((await inject(t.app, userApi.wallet, { token: u.token })).data().balance).toBe(190);

    // Not locked: the next step's code still goes through.
    const next = await inject(t.app, withdrawals.create, { token: u.token, body: { ...body, totp_code: totpAt(secret, (step + 1) * 30_000) } });
    expect(next.statusCode, next.body).toBe(200);
    // And real wrong codes still count: ten use up the account's guess budget (guess-budget.ts).
    for (let i = 0; i < 10; i++) await inject(t.app, withdrawals.create, { token: u.token, body: { ...body, totp_code: String(100000 + i) } });
    expect((await inject(t.app, withdrawals.create, { token: u.token, body: { ...body, totp_code: totpAt(secret, (step + 1) * 30_000) } })).statusCode).toBe(
      429,
    );
  });
});
