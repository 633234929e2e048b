/**
 * The custody module's face to the rest of the server (the `chain` gateway, custody.md): the
 * users' permanent addresses, and the watchers that credit what arrives on them.
 */
export { ensureAddress, userAddresses, type UserAddress } from './addresses';
