import type { TSweepCandidate } from '@app/core/contracts';
import { encodeFunctionData, erc20Abi, keccak256, type Hex } from 'viem';
import { type HDKey, privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts';
import { bytesToHex } from 'viem';
import type { SignerConfig } from './config';
import { broadcast, claimHotNonce, confirmationsOf, GAS_LIMIT, hotBalances, rawOfMicro, receiptOf, type EvmNetwork } from './chain';
import type { Log } from './payouts';
import { ServerRefused, type ServerApi } from './server-api';
import type { Store } from './store';

/**
 * Where a test stops a sweep as a kill -9 would: between the gas top-up and the token transfer, or
 * (Tron) with the top-up stored signed and not yet broadcast.
 */
export type SweepCrashPoint = 'after-gas' | 'gas-signed';
export class SweepCrash extends Error {}

/** Tron's sweeps (tron-sweeps.ts), given the server's Tron candidates on each pass. */
export interface TronSweeps {
  tick(candidates: TSweepCandidate[], done: Record<string, number>, crashAt: SweepCrashPoint | null): Promise<void>;
}

/** A sweep started and not finished, as the store keeps it; `H` is the chain's hash and bytes text (EVM: 0x hex). */
export interface OpenSweep<H extends string = Hex> {
  id: string;
  /** 0x + the 20 bytes, as the server names it */
  address: string;
  idx: number;
  amountRaw: bigint;
  destination: 'hot' | 'cold';
  gasHash: H | null;
  gasRaw: H | null;
  tokenHash: H | null;
  tokenRaw: H | null;
  state: 'gas' | 'token';
}

/** The open sweep of an address on a network (both chains' sweepers read it the same way). */
export async function openSweepOf<H extends string>(store: Store, network: string, address: string): Promise<OpenSweep<H> | null> {
  const rows = await store.query<{
    id: string;
    address: string;
    idx: number;
    amount_raw: string;
    destination: 'hot' | 'cold';
    gas_hash: H | null;
    gas_raw: H | null;
    token_hash: H | null;
    token_raw: H | null;
    state: 'gas' | 'token';
  }>(
    `select id::text as id, address, idx, amount_raw::text as amount_raw, destination, gas_hash, gas_raw, token_hash, token_raw, state
       from sweeps where network = $1 and address = $2 and state in ('gas', 'token')`,
    [network, address],
  );
  const r = rows[0];
  return r
    ? {
        id: r.id,
        address: r.address,
        idx: Number(r.idx),
        amountRaw: BigInt(r.amount_raw),
        destination: r.destination,
        gasHash: r.gas_hash,
        gasRaw: r.gas_raw,
        tokenHash: r.token_hash,
        tokenRaw: r.token_raw,
        state: r.state,
      }
    : null;
}

/**
 * Sweeps deposit addresses (custody.md section 6, "Sweeps"): an address holding at least
 * SWEEP_MIN_USD is first given just enough gas from the hot wallet when it lacks it; once that
 * top-up is final, the token goes from the deposit key to the hot wallet (or to the cold wallet
 * once the hot wallet holds HOT_TARGET_USD); once that transfer is final the server is told, and
 * records it after checking the chain. Each transaction is stored signed before it is broadcast;
 * after a crash the same bytes are sent again, so an address is never swept twice nor topped up twice.
 */
export class Sweeper {
  crashAt: SweepCrashPoint | null = null;
  tron: TronSweeps | undefined;

  constructor(
    private readonly config: SignerConfig,
    private readonly store: Store,
    private readonly api: ServerApi,
    private readonly networks: Map<string, EvmNetwork>,
    /** the deposit keys' parent, m/44'/60'/0'/0 */
    private readonly deposits: HDKey,
    private readonly log: Log,
  ) {}

  async tick(): Promise<{ toppedUp: number; sent: number; reported: number }> {
    const done = { toppedUp: 0, sent: 0, reported: 0 };
    const candidates = await this.api.sweeps();
    for (const c of candidates) {
      const net = this.networks.get(c.network);
      if (!net) continue;
      const open = await this.openSweep(c.network, c.address.toLowerCase());
      if (open) await this.advance(net, open, done);
      else await this.start(net, c, done);
    }
    // Sweeps whose address the server no longer lists (its balance read after the transfer) still finish.
    for (const net of this.networks.values()) {
      const rows = await this.store.query<{ address: string }>(`select address from sweeps where network = $1 and state in ('gas', 'token')`, [
        net.config.network,
      ]);
      for (const r of rows) {
        if (candidates.some((c) => c.network === net.config.network && c.address.toLowerCase() === r.address)) continue;
        const open = await this.openSweep(net.config.network, r.address);
        if (open) await this.advance(net, open, done);
      }
    }
    if (this.tron)
      await this.tron.tick(
        candidates.filter((c) => c.network === 'tron'),
        done,
        this.crashAt,
      );
    return done;
  }

  private depositAccount(idx: number): PrivateKeyAccount {
    return privateKeyToAccount(bytesToHex(this.deposits.deriveChild(idx).privateKey!));
  }

  private async start(net: EvmNetwork, c: TSweepCandidate, done: Record<string, number>): Promise<void> {
    const account = this.depositAccount(c.index);
    const address = c.address.toLowerCase();
    if (account.address.toLowerCase() !== address) {
      // Derived under another key (rotated away, or not this mnemonic's): not ours to move.
      this.log.warn({ network: c.network, address, index: c.index }, 'sweep skipped: this mnemonic does not hold the key of that address');
      return;
    }
    const balance = await net.client.readContract({ address: net.config.token, abi: erc20Abi, functionName: 'balanceOf', args: [account.address] });
    if (balance < rawOfMicro(this.config.sweepMinMicro, net.config.decimals) || balance === 0n) return;
    const hot = await hotBalances(net);
    const destination: 'hot' | 'cold' = this.config.coldEvm && hot.token >= rawOfMicro(this.config.hotTargetMicro, net.config.decimals) ? 'cold' : 'hot';
    const gasPrice = await net.client.getGasPrice();
    const need = GAS_LIMIT * gasPrice;
    const has = await net.client.getBalance({ address: account.address });
    if (has >= need) {
      await this.signToken(net, null, { address, idx: c.index, amountRaw: balance, destination }, gasPrice);
      done.sent!++;
      return;
    }
    const topUp = await this.store.transaction(async (sql) => {
      const nonce = await claimHotNonce(sql, net);
      const raw = await net.hot.signTransaction({
        chainId: net.chainId,
        type: 'legacy',
        to: account.address,
        value: need - has,
        nonce: Number(nonce),
        gas: 21_000n,
        gasPrice,
      });
      const hash = keccak256(raw);
      await sql.query(
        `insert into sweeps (network, address, idx, amount_raw, destination, gas_nonce, gas_hash, gas_raw, state) values ($1, $2, $3, $4, $5, $6, $7, $8, 'gas')`,
        [net.config.network, address, c.index, String(balance), destination, String(nonce), hash, raw],
      );
      return { raw, hash };
    });
    await broadcast(net, topUp.raw);
    done.toppedUp!++;
    this.log.info({ network: net.config.network, address, tx: topUp.hash }, 'sweep: gas top-up sent');
    if (this.crashAt === 'after-gas') throw new SweepCrash('after-gas');
  }

  /** Signs the token transfer from the deposit key, stores it, then broadcasts it. */
  private async signToken(
    net: EvmNetwork,
    sweepId: string | null,
    s: { address: string; idx: number; amountRaw: bigint; destination: 'hot' | 'cold' },
    gasPrice: bigint,
  ): Promise<void> {
    const account = this.depositAccount(s.idx);
    const to = s.destination === 'cold' ? this.config.coldEvm! : (net.hot.address.toLowerCase() as Hex);
    const nonce = await net.client.getTransactionCount({ address: account.address, blockTag: 'pending' });
    const raw = await account.signTransaction({
      chainId: net.chainId,
      type: 'legacy',
      to: net.config.token,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, s.amountRaw] }),
      nonce,
      gas: GAS_LIMIT,
      gasPrice,
      value: 0n,
    });
    const hash = keccak256(raw);
    if (sweepId) await this.store.query(`update sweeps set token_hash = $2, token_raw = $3, state = 'token' where id = $1`, [sweepId, hash, raw]);
    else
      await this.store.query(
        `insert into sweeps (network, address, idx, amount_raw, destination, token_hash, token_raw, state) values ($1, $2, $3, $4, $5, $6, $7, 'token')`,
        [net.config.network, s.address, s.idx, String(s.amountRaw), s.destination, hash, raw],
      );
    await broadcast(net, raw);
    this.log.info({ network: net.config.network, address: s.address, to, amount_raw: String(s.amountRaw), tx: hash }, 'sweep: token transfer sent');
  }

  private async advance(net: EvmNetwork, s: OpenSweep, done: Record<string, number>): Promise<void> {
    if (s.state === 'gas') {
      const r = await receiptOf(net, s.gasHash!);
      if (!r) {
        await broadcast(net, s.gasRaw!);
        return;
      }
      if (r.status !== 'success') return this.kill(s, 'the gas top-up reverted');
      if ((await confirmationsOf(net, r)) < net.config.confirmations) return;
      await this.signToken(net, s.id, s, await net.client.getGasPrice());
      done.sent!++;
      return;
    }
    const r = await receiptOf(net, s.tokenHash!);
    if (!r) {
      await broadcast(net, s.tokenRaw!);
      return;
    }
    if (r.status !== 'success') return this.kill(s, 'the token transfer reverted');
    if ((await confirmationsOf(net, r)) < net.config.confirmations) return;
    try {
      await this.api.sweepReport({
        network: net.config.network,
        address: s.address,
        amount_raw: String(s.amountRaw),
        destination: s.destination,
        gas_tx: s.gasHash,
        token_tx: s.tokenHash!,
      });
    } catch (err) {
      // Not final for the server yet (its node may be behind): told again on the next pass.
      if (err instanceof ServerRefused && err.status === 409) return;
      throw err;
    }
    await this.store.query(`update sweeps set state = 'reported' where id = $1`, [s.id]);
    done.reported!++;
  }

  private async kill(s: OpenSweep, reason: string): Promise<void> {
    await this.store.query(`update sweeps set state = 'dead' where id = $1`, [s.id]);
    this.log.error({ address: s.address, reason }, 'sweep failed');
  }

  private openSweep(network: string, address: string): Promise<OpenSweep | null> {
    return openSweepOf<Hex>(this.store, network, address);
  }
}
