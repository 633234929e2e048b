import { contractPath, type Contract, type DataOut, type InputOf } from '@app/core/contracts/define';
import { z } from 'zod';
import { ApiError, request } from './api-client';

// Kept out of api-client.ts, which the entry chunk loads: only the pages that call the API carry this.
export type CallArgs<C extends Contract> = object extends InputOf<C> ? [input?: InputOf<C>] : [input: InputOf<C>];

/**
 * Calls one endpoint from its contract (spec section 7, with the bearer token): the input and the
 * answer's `data` are typed by the contract, so no call names a type or casts the JSON.
 */
export async function call<C extends Contract>(contract: C, ...[input]: CallArgs<C>): Promise<{ success: true; data: DataOut<C>; message?: string }> {
  const path = contractPath(contract, input?.params as Record<string, unknown> | undefined);
  const body = contract.method === 'GET' || contract.method === 'DELETE' ? undefined : (input?.body ?? {});
  const json = await request(contract.method, path, body, input?.query as Record<string, unknown> | undefined);
  return { success: true, data: json.data as DataOut<C>, ...(json.message !== undefined ? { message: json.message } : {}) };
}

/** The names of a contract's body fields. */
export type BodyField<C extends Contract> = C['body'] extends z.ZodType ? Extract<keyof z.input<C['body']>, string> : never;

/**
 * The field errors of a failed call to `contract`, keyed by its body's fields: the `errors` the
 * server sends with a failure (server design, section 2). A name outside the body is dropped, so a
 * form sets errors only on fields it has; any other failure gives none. Every body is an object
 * (call.test.ts holds the contracts to that), so no form loses its field errors to the shape check.
 */
export function fieldErrorsOf<C extends Contract>(contract: C, err: unknown): Partial<Record<BodyField<C>, string>> {
  if (!(err instanceof ApiError) || !(contract.body instanceof z.ZodObject)) return {};
  const fields = new Set(Object.keys(contract.body.shape));
  return Object.fromEntries(Object.entries(err.errors).filter(([name]) => fields.has(name))) as Partial<Record<BodyField<C>, string>>;
}

/** TanStack Query's queryFn for a contract: resolves to the answer's data. */
export const fetchData =
  <C extends Contract>(contract: C, ...args: CallArgs<C>) =>
  async (): Promise<DataOut<C>> =>
    (await call(contract, ...args)).data;
