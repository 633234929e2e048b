import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { deployMulticall3, pickyTokenCode } from '../../test/chain/multicall3';
import { usdtRaw, useChainTest } from '../../test/chain/test-chain';
import { readBalances } from './balances';
import { evmClient, MULTICALL3 } from './rpc/client';
import { httpTransport, type RpcRequest, type RpcTransport } from './rpc/json-rpc';
import { configureCustody } from './runtime';

/** More than two of the job's chunks of 500, so a balance put in another owner's place shows. */
const ADDRESSES = 1_001;
const at = (i: number) => `0x${(0xb0000 + i).toString(16).padStart(40, '0')}`;

/** A transport to the node that keeps every request it passes on. */
function recording(url: string): { transport: RpcTransport; calls: RpcRequest[] } {
  const calls: RpcRequest[] = [];
  const http = httpTransport(url);
  return {
    calls,
    transport: (body, opts) => {
      calls.push(...(Array.isArray(body) ? body : [body]));
      return http(body, opts);
    },
  };
}
const ethCallsTo = (calls: RpcRequest[], to: string) =>
  calls.filter((c) => c.method === 'eth_call' && (c.params[0] as { to: string }).to.toLowerCase() === to.toLowerCase());

/**
 * Issue 49: the balances job reads every deposit address's token balance. Where Multicall3 is
 * deployed (its code at the read height), one aggregate3 eth_call reads a chunk of 500; where it
 * is not, a JSON-RPC batch of balanceOf eth_calls. Both must store the same balances, each at its
 * owner's row.
 */
describe('the balances job with and without Multicall3', () => {
  const c = useChainTest();

  it('reads by JSON-RPC batches where Multicall3 is absent, by aggregate3 once it is deployed, each balance at its owner', async () => {
    const owner = await c.user();
    await sql`
      insert into custody_addresses (family, address, user_id, idx, xpub)
      select 'evm', '0x' || lpad(to_hex(${0xb0000}::int + i), 40, '0'), ${owner.id}, 200000 + i, 'balances-' || i
      from generate_series(0, ${ADDRESSES - 1}) as i`.execute(c.t.db);
    const minted = new Map<string, bigint>([
      [at(0), usdtRaw('1.5', 18)],
      [at(499), usdtRaw('2', 18)],
      [at(500), usdtRaw('3.25', 18)],
      [at(ADDRESSES - 1), usdtRaw('4', 18)],
    ]);
    for (const [to, raw] of minted) await c.anvil.mint(c.bsc, to, raw);
    await c.anvil.mine(6);
    for (let i = 0; i < 3; i++) await c.tick();

    const stored = async () =>
      new Map(
        (await c.t.db.selectFrom('custody_balances').select(['address', 'balance']).where('network', '=', 'bsc').execute()).map((r) => [
          r.address,
          BigInt(r.balance),
        ]),
      );
    const expectStored = async (want: Map<string, bigint>) => {
      const got = await stored();
      // Every other row is 0: a balance read for another owner would show as a second non-zero row.
      expect(new Map([...got].filter(([, v]) => v !== 0n))).toEqual(want);
      for (const a of [at(2), at(498), at(501), at(ADDRESSES - 2)]) expect(got.get(a)).toBe(0n);
    };

    const without = recording(c.anvil.url);
    configureCustody(c.t.ctx, { clients: { bsc: evmClient(without.transport) } });
    const first = await readBalances(c.t.ctx, 'bsc');
    expect(first.addresses).toBeGreaterThanOrEqual(ADDRESSES);
    await expectStored(minted);
    // Asked for Multicall3's code at the read height once, then plain balanceOf calls for every address.
    expect(without.calls.filter((r) => r.method === 'eth_getCode')).toHaveLength(1);
    expect(ethCallsTo(without.calls, MULTICALL3)).toHaveLength(1);
    expect(ethCallsTo(without.calls, c.bsc)).toHaveLength(first.addresses);

    await deployMulticall3(c.anvil);
    await c.anvil.mint(c.bsc, at(1), usdtRaw('0.000001', 18));
    await c.anvil.mine(6);
    for (let i = 0; i < 3; i++) await c.tick();
    const withIt = recording(c.anvil.url);
    configureCustody(c.t.ctx, { clients: { bsc: evmClient(withIt.transport) } });
    const second = await readBalances(c.t.ctx, 'bsc');
    expect(second.atBlock).toBeGreaterThan(first.atBlock!);
    await expectStored(new Map([...minted, [at(1), usdtRaw('0.000001', 18)]]));
    // One aggregate3 call a chunk of 500, no balanceOf of its own.
    expect(ethCallsTo(withIt.calls, MULTICALL3)).toHaveLength(Math.ceil(second.addresses / 500));
    expect(ethCallsTo(withIt.calls, c.bsc)).toHaveLength(0);
  });

  it('a failed sub-call spoils no other balance: its owner alone is asked again, and a refusal there fails the read', async () => {
    const head = await c.anvil.head();
    const owners = Array.from({ length: 5 }, (_, i) => at(900 + i));
    const refused = owners[2]!;
    const setup = async (token: string, inContractsOnly: boolean) => {
      await c.anvil.rpc('anvil_setCode', [token, pickyTokenCode(refused, inContractsOnly)]);
      for (const [i, o] of owners.entries())
        await c.anvil.rpc('anvil_setStorageAt', [
          token,
          `0x${o.slice(2).padStart(64, '0')}`,
          `0x${BigInt(1_000 * (i + 1))
            .toString(16)
            .padStart(64, '0')}`,
        ]);
      await c.anvil.mine(1);
    };
    const contractsOnly = `0x${'c1'.repeat(20)}`;
    const always = `0x${'c2'.repeat(20)}`;
    await deployMulticall3(c.anvil);
    await setup(contractsOnly, true);
    await setup(always, false);
    expect(await c.anvil.head()).toBeGreaterThan(head);

    const r = recording(c.anvil.url);
    const client = evmClient(r.transport);
    expect(await client.balancesOf!(contractsOnly, owners, null)).toEqual([1_000n, 2_000n, 3_000n, 4_000n, 5_000n]);
    expect(ethCallsTo(r.calls, MULTICALL3)).toHaveLength(1);
    const alone = ethCallsTo(r.calls, contractsOnly);
    expect(alone).toHaveLength(1);
    expect((alone[0]!.params[0] as { data: string }).data.slice(-40)).toBe(refused.slice(2));

    await expect(client.balancesOf!(always, owners, null)).rejects.toThrow(/revert/);
  });
});
