/**
 * The custody module's face to the rest of the server (the `chain` gateway, custody.md): the
 * users' permanent addresses (the chain gateway hands them out) and the watchers' state for the
 * health check. The watchers themselves run from jobs.ts; they credit through the payments
 * service, which is why nothing here leads back to it.
 */
export { ensureAddress, userAddresses, type UserAddress } from './addresses';
export { custodyStatus, reconcile, resumeNetwork, type NetworkStatus, type Reconciliation } from './status';
export { custodyView } from './admin-view';
export { dismissObservation } from './dismiss';
