import { describe, expect, it } from 'vitest';
import { TEST_HOT_EVM_ADDRESS, TEST_MNEMONIC } from '../test/chain/test-keys';
import { custodyXpubOutput } from '../modules/custody/xpub-command';
import { xpubArgs } from './offline';
import { usageText } from './usage';

describe('custody:xpub arguments', () => {
  it('takes --index and --count, also past 100', () => {
    expect(xpubArgs([])).toEqual({ index: 0, count: 3 });
    expect(xpubArgs(['--index', '150', '--count', '250'])).toEqual({ index: 150, count: 250 });
    expect(xpubArgs(['--count=101'])).toEqual({ index: 0, count: 101 });
    expect(xpubArgs(['--count', '0'])).toMatchObject({ exitCode: 2 });
    expect(xpubArgs(['--index', '-1'])).toMatchObject({ exitCode: 2 });
    expect(xpubArgs(['--index', String(2 ** 31 - 1), '--count', '2'])).toMatchObject({ exitCode: 2 });
    expect(xpubArgs(['--indx', '3'])).toMatchObject({ exitCode: 2, output: expect.stringMatching(/Unknown option --indx/) });
  });

  it('refuses mnemonic words given as separate arguments, with a hint to use standard input', () => {
    const r = xpubArgs(TEST_MNEMONIC.split(' '));
    expect(r).toMatchObject({ exitCode: 2, output: expect.stringMatching(/standard input/) });
    expect(xpubArgs([TEST_MNEMONIC])).toMatchObject({ exitCode: 2, output: expect.stringMatching(/standard input/) });
    expect(xpubArgs(['--count', '2', 'test'])).toMatchObject({ exitCode: 2 });
  });

  it('prints the addresses from --index on, with their indexes', () => {
    const out = custodyXpubOutput(TEST_MNEMONIC, 2, 1).output;
    // m/44'/60'/0'/0/1 of the test mnemonic: the second account of every dev chain.
    expect(out).toContain('  1: 0x70997970C51812dc3A010C7d01b50e0d17dc79C8');
    expect(out).toContain('  1: TPjjvMwjPoDC32V2dGDYTkLH4E5LAtBZ6C');
    expect(out).not.toContain('  0: 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    expect(out).toMatch(/^ {2}2: 0x/m);
    // The signer's hot wallet, m/44'/60'/1'/0/0: the address the signer derives and pays from.
    expect(out).toContain(`CUSTODY_HOT_EVM_ADDRESS=${TEST_HOT_EVM_ADDRESS}`);
    expect(out).toMatch(/^CUSTODY_HOT_TRON_ADDRESS=T[1-9A-HJ-NP-Za-km-z]{33}$/m);
    const many = custodyXpubOutput(TEST_MNEMONIC, 150, 0).output;
    expect(many).toMatch(/^ {2}149: T/m);
  });
});

describe('npm run cli usage', () => {
  it('lists every command, chain:send and custody:rotate included', () => {
    const text = usageText();
    for (const c of ['chain:send', 'custody:rotate [--dry-run]', 'custody:xpub [--index N] [--count N]', 'ledger:verify', 'backup FILE'])
      expect(text).toContain(c);
  });
});
