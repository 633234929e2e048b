import { HDKey } from '@scure/bip32';
import { mnemonicToSeedSync } from '@scure/bip39';
import { describe, expect, it } from 'vitest';
import { useChainTest } from '../../test/chain/test-chain';
import { TEST_EVM_XPUB } from '../../test/chain/test-keys';
import { payments } from '@app/core/contracts';
import { inject } from '../../test/api';
import { runCommand } from '../../cli/commands';
import { deriveAddress, keyFingerprint, parseAccountXpub } from './derive';

// Another seed: the operator's new mnemonic after a compromise.
const NEW_MNEMONIC = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
const NEW_EVM_XPUB = HDKey.fromMasterSeed(mnemonicToSeedSync(NEW_MNEMONIC)).derive("m/44'/60'/0'").publicExtendedKey;

describe('rotating CUSTODY_EVM_XPUB', () => {
  const c = useChainTest();

  it('gives users a new address under the new key, keeps the old ones watched and credited', async () => {
    const old = parseAccountXpub(TEST_EVM_XPUB, 'evm');
    const u = await c.user();
    const before = await inject(c.t.app, payments.addresses, { token: u.token });
    expect(before.data().usdtbsc).toBe(u.evmDisplay);

    // The restart with the new setting, in place: the same database, the new key.
    const key = parseAccountXpub(NEW_EVM_XPUB, 'evm');
    const xpubs = c.t.ctx.config.payments.custody.xpubs;
    xpubs.evm = { text: NEW_EVM_XPUB, key };
    try {
      const dry = await runCommand(c.t.ctx, 'custody:rotate', ['--dry-run']);
      expect(dry.exitCode, dry.output).toBe(0);
      expect(dry.output).toContain(`evm: the configured key ${keyFingerprint(key).slice(0, 8)} (CUSTODY_EVM_XPUB) is new`);
      expect(dry.output).toContain(`1 users hold 1 addresses under the old key ${keyFingerprint(old).slice(0, 8)}`);
      expect(dry.output).toMatch(/old addresses stay watched and credited/);
      expect(dry.output).toMatch(/Dry run: nothing recorded/);
      expect(await c.t.db.selectFrom('custody_keys').selectAll().where('fingerprint', '=', keyFingerprint(key)).execute()).toEqual([]);
      const real = await runCommand(c.t.ctx, 'custody:rotate', []);
      expect(real.output).toContain(`recorded key ${keyFingerprint(key).slice(0, 8)}`);
      expect((await runCommand(c.t.ctx, 'custody:rotate', [])).output).toMatch(/Nothing to record/);

      const after = await inject(c.t.app, payments.addresses, { token: u.token });
      // Before key rotation this answered 400 "Deposit addresses are being changed" for good.
      expect(after.statusCode, after.body).toBe(200);
      // The new key's own sequence: its first address, whatever indexes the old key had handed out.
      expect(after.data().usdtbsc).toBe(deriveAddress('evm', key, 0).display);
      expect(after.data().usdtmatic).toBe(after.data().usdtbsc);
      const again = await inject(c.t.app, payments.addresses, { token: u.token });
      expect(again.data()).toEqual(after.data());

      const created = await inject(c.t.app, payments.create, { token: u.token, body: { amount: 5, currency: 'usdtbsc' } });
      expect(created.statusCode, created.body).toBe(200);
      expect(created.data().payAddress).toBe(deriveAddress('evm', key, 0).display);

      const rows = await c.t.db
        .selectFrom('custody_addresses')
        .selectAll()
        .where('user_id', '=', u.id)
        .where('family', '=', 'evm')
        .orderBy('created_at')
        .execute();
      expect(rows.map((r) => [r.address, r.key_fingerprint])).toEqual([
        [u.evm, keyFingerprint(old)],
        [deriveAddress('evm', key, 0).hex, keyFingerprint(key)],
      ]);

      // Both addresses are watched: a deposit to each is credited to the user.
      await c.tick();
      await c.deposit('bsc', u.evm, '7');
      await c.deposit('bsc', deriveAddress('evm', key, 0).hex, '3');
      await c.anvil.mine(6);
      await c.tick();
      expect(await c.balance(u.id)).toBe(10_000_000n);

      // A user who never had an address starts under the new key right away.
      const v = await c.user();
      expect(v.evm).toBe(deriveAddress('evm', key, 1).hex);
    } finally {
      xpubs.evm = { text: TEST_EVM_XPUB, key: old };
    }
    // Rotating back to the old key gives the user their old address again, and nobody a reused index.
    const back = await inject(c.t.app, payments.addresses, { token: u.token });
    expect(back.data().usdtbsc).toBe(u.evmDisplay);
    const w = await c.user();
    const oldIdx = await c.t.db.selectFrom('custody_addresses').select('idx').where('key_fingerprint', '=', keyFingerprint(old)).execute();
    expect(new Set(oldIdx.map((r) => r.idx)).size).toBe(oldIdx.length);
    expect(w.evm).not.toBe(u.evm);
  });
});
