import { describe, expect, it } from 'vitest';
import { isValidAddress, isValidEvmAddress, isValidTronAddress, toChecksumAddress, tronAddressFromBytes } from './addresses';

describe('addresses', () => {
  it('accepts EIP-55 checksummed and single-case EVM addresses and refuses a broken checksum', () => {
    const good = '0x52908400098527886E0F7030069857D2E4169EE7';
    expect(isValidEvmAddress(good)).toBe(true);
    expect(isValidEvmAddress(good.toLowerCase())).toBe(true);
    expect(isValidEvmAddress('0x' + good.slice(2).toUpperCase())).toBe(true);
    expect(isValidEvmAddress(good.replace('E0F', 'e0F'))).toBe(false);
    expect(isValidEvmAddress('0x1234')).toBe(false);
    expect(toChecksumAddress(good.toLowerCase())).toBe(good);
  });

  it('checks TRON base58check with the 0x41 prefix', () => {
    expect(isValidTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
    expect(isValidTronAddress('TEmGwPeRTPiLFLVfBxXkSP91yc5GMNQhfS')).toBe(true);
    expect(isValidTronAddress('TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6u')).toBe(false);
    expect(isValidTronAddress('0x52908400098527886E0F7030069857D2E4169EE7')).toBe(false);
    const made = tronAddressFromBytes(new Uint8Array([0x41, ...new Array(20).fill(7)]));
    expect(isValidTronAddress(made)).toBe(true);
  });

  it('matches the address to the network', () => {
    expect(isValidAddress('BSC', '0x52908400098527886E0F7030069857D2E4169EE7')).toBe(true);
    expect(isValidAddress('POLYGON', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(false);
    expect(isValidAddress('TRON', 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t')).toBe(true);
  });
});
