/**
 * The custody module's face to the rest of the server (the `chain` gateway, custody.md): the
 * users' permanent addresses (the chain gateway hands them out) and the watchers' state for the
 * health check. The watchers themselves run from jobs.ts; they credit through the payments
 * service, which is why nothing here leads back to it.
 */
export { ensureAddress, userAddresses, type UserAddress } from './addresses';
export { custodyStatus, NETWORK_STATES, reconcile, resumeNetwork, type NetworkStatus, type Reconciliation } from './status';
export { custodyView } from './admin-view';

// What the payouts module (the signer's server side) reads of custody: the networks' clients and
// configuration, address forms and token amounts (one implementation each).
export { addressHex } from './derive';
export { microOf, rawOf } from './amounts';
export { custodyRuntime } from './runtime';
export { TRANSFER_TOPIC, type ChainClient } from './rpc/client';
export type { CustodyConfig, NetworkConfig } from './config';
