import type { Contract } from '@app/core/contracts/define';
import type { Query } from '@tanstack/react-query';
import { fetchData, type CallArgs } from './call';

/**
 * A query's key is the call it makes: the contract's method and path, then the input it sends.
 * Nothing is named by hand, so a key cannot drift from its call, and two screens reading the same
 * call share one cache entry.
 */

/** Every query of one endpoint, whatever its input: what an invalidation names. */
export const keyOfAll = (contract: Contract): readonly [string, string] => [contract.method, contract.path];

/** The key of one call of `contract` with this input. */
export function keyOf<C extends Contract>(contract: C, ...[input]: CallArgs<C>): readonly unknown[] {
  return input === undefined ? keyOfAll(contract) : [...keyOfAll(contract), input];
}

/** `queryKey` and `queryFn` from one contract and one input (spread into `queryOptions`). */
export function contractQuery<C extends Contract>(contract: C, ...args: CallArgs<C>) {
  return { queryKey: keyOf(contract, ...args), queryFn: fetchData(contract, ...args) };
}

/** Every query whose endpoint's path starts with `prefix` (the admin console's '/admin/'). */
export const underPath =
  (prefix: string) =>
  (query: Query): boolean =>
    typeof query.queryKey[1] === 'string' && query.queryKey[1].startsWith(prefix);
