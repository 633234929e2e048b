import type { TSweepCandidate } from '@app/core/contracts';
import type { HDKey } from 'viem/accounts';
import { rawOfMicro } from './chain';
import type { SignerConfig, SignerTron } from './config';
import type { Log } from './payouts';
import { ServerRefused, type ServerApi } from './server-api';
import type { Store } from './store';
import { openSweepOf, SweepCrash, type OpenSweep as OpenSweepOf, type SweepCrashPoint, type TronSweeps } from './sweeps';
import { signTronTx, tronAddressOf, TronNode, type AnyTronTx, type TronHex } from './tron';

/**
 * Bandwidth of the token transfer (about 350 bytes) when the address's free daily bandwidth is
 * spent: burned at 1,000 sun a byte, so 1 TRX covers it with room.
 */
const BANDWIDTH_SUN = 1_000_000n;

type OpenSweep = OpenSweepOf<string>;

/**
 * Sweeps Tron deposit addresses (custody.md section 6, "Sweeps"), in the EVM sweeps' table and
 * order: when the address holds less TRX than the token transfer may burn (its fee_limit, plus its
 * bandwidth), the hot wallet sends it the difference, a TransferContract the node builds and this
 * signer re-encodes before signing; once that is solidified, the deposit key sends the whole token
 * balance to the hot wallet (or SWEEP_COLD_TRON_ADDRESS once the hot wallet holds HOT_TARGET_USD);
 * once that is solidified the server is told. Each transaction is stored signed before it is
 * broadcast, and the same one is broadcast again after a crash. Tron has no nonce: a stored
 * transaction is given up only once it is provably dead (failed on chain, or expired with its
 * expiration solidified and in no block), and the sweep then starts again from the balances, so a
 * top-up that arrived is never sent twice.
 */
export class TronSweeper implements TronSweeps {
  readonly node: TronNode;

  constructor(
    private readonly config: SignerConfig,
    private readonly tron: SignerTron,
    private readonly store: Store,
    private readonly api: ServerApi,
    private readonly hot: { privateKey: Uint8Array; address: TronHex },
    /** m/44'/195'/0'/0 */
    private readonly deposits: HDKey,
    private readonly log: Log,
  ) {
    this.node = new TronNode(tron.url);
  }

  async tick(candidates: TSweepCandidate[], done: Record<string, number>, crashAt: SweepCrashPoint | null): Promise<void> {
    for (const c of candidates) {
      const open = await this.openSweep(c.address.toLowerCase());
      if (open) await this.advance(open, done);
      else await this.start(c, done, crashAt);
    }
    // Sweeps whose address the server no longer lists (its balance read after the transfer) still finish.
    const rows = await this.store.query<{ address: string }>(`select address from sweeps where network = 'tron' and state in ('gas', 'token')`);
    for (const r of rows) {
      if (candidates.some((c) => c.address.toLowerCase() === r.address)) continue;
      const open = await this.openSweep(r.address);
      if (open) await this.advance(open, done);
    }
  }

  private depositKey(idx: number): { privateKey: Uint8Array; address: TronHex } {
    const privateKey = this.deposits.deriveChild(idx).privateKey!;
    return { privateKey, address: tronAddressOf(privateKey) };
  }

  private async start(c: TSweepCandidate, done: Record<string, number>, crashAt: SweepCrashPoint | null): Promise<void> {
    const address = c.address.toLowerCase();
    const key = this.depositKey(c.index);
    if (`0x${key.address.slice(2)}` !== address) {
      // Derived under another key (rotated away, or not this mnemonic's): not ours to move.
      this.log.warn({ network: 'tron', address, index: c.index }, 'sweep skipped: this mnemonic does not hold the key of that address');
      return;
    }
    const d = this.tron.decimals;
    const balance = await this.node.tokenBalance(this.tron.token, key.address);
    if (balance === 0n || balance < rawOfMicro(this.config.sweepMinMicro, d)) return;
    const hotToken = await this.node.tokenBalance(this.tron.token, this.hot.address);
    const destination: 'hot' | 'cold' = this.config.coldTron && hotToken >= rawOfMicro(this.config.hotTargetMicro, d) ? 'cold' : 'hot';
    const need = BigInt(this.tron.feeLimitSun) + BANDWIDTH_SUN;
    const has = await this.node.trxBalance(key.address);
    const s = { address, idx: c.index, amountRaw: balance, destination };
    if (has >= need) {
      await this.signToken(null, s);
      done.sent!++;
      return;
    }
    // The top-up must not leave the hot wallet short of what one payout may burn.
    const hotTrx = await this.node.trxBalance(this.hot.address);
    if (hotTrx < need - has + BigInt(this.tron.feeLimitSun)) {
      this.log.warn({ network: 'tron', address, hot_sun: String(hotTrx) }, 'sweep waits: the hot wallet holds too little TRX for the top-up');
      return;
    }
    const tx = signTronTx(await this.node.buildTrxTransfer({ owner: this.hot.address, to: key.address, amount: need - has }), this.hot.privateKey);
    await this.store.query(
      `insert into sweeps (network, address, idx, amount_raw, destination, gas_hash, gas_raw, state) values ('tron', $1, $2, $3, $4, $5, $6, 'gas')`,
      [address, c.index, String(balance), destination, tx.txID, JSON.stringify(tx)],
    );
    if (crashAt === 'gas-signed') throw new SweepCrash('gas-signed');
    await this.node.broadcast(tx);
    done.toppedUp!++;
    this.log.info({ network: 'tron', address, tx: tx.txID, sun: String(need - has) }, 'sweep: TRX top-up sent');
    if (crashAt === 'after-gas') throw new SweepCrash('after-gas');
  }

  /** Signs the deposit key's TRC-20 transfer (built by the node, checked against our own encoding), stores it, then broadcasts it. */
  private async signToken(sweepId: string | null, s: { address: string; idx: number; amountRaw: bigint; destination: 'hot' | 'cold' }): Promise<void> {
    const key = this.depositKey(s.idx);
    const to = s.destination === 'cold' ? this.config.coldTron! : this.hot.address;
    const unsigned = await this.node.buildTransfer({ owner: key.address, token: this.tron.token, to, raw: s.amountRaw, feeLimit: this.tron.feeLimitSun });
    const tx = signTronTx(unsigned, key.privateKey);
    if (sweepId)
      await this.store.query(`update sweeps set token_hash = $2, token_raw = $3, state = 'token' where id = $1`, [sweepId, tx.txID, JSON.stringify(tx)]);
    else
      await this.store.query(
        `insert into sweeps (network, address, idx, amount_raw, destination, token_hash, token_raw, state) values ('tron', $1, $2, $3, $4, $5, $6, 'token')`,
        [s.address, s.idx, String(s.amountRaw), s.destination, tx.txID, JSON.stringify(tx)],
      );
    await this.node.broadcast(tx);
    this.log.info({ network: 'tron', address: s.address, to, amount_raw: String(s.amountRaw), tx: tx.txID }, 'sweep: token transfer sent');
  }

  private async advance(s: OpenSweep, done: Record<string, number>): Promise<void> {
    const tx = JSON.parse((s.state === 'gas' ? s.gasRaw : s.tokenRaw)!) as AnyTronTx;
    const info = await this.node.txInfo(tx.txID);
    if (info) {
      // A TRX transfer's receipt has no result (only a contract call's has); either can be FAILED.
      const ok = info.result !== 'FAILED' && (s.state === 'gas' || info.receipt?.result === 'SUCCESS');
      if (!ok) return this.kill(s, `the ${s.state === 'gas' ? 'TRX top-up' : 'token transfer'} failed on chain (${info.receipt?.result ?? info.result})`);
      if (info.blockNumber! > (await this.node.solidified()).number) return;
      if (s.state === 'gas') {
        await this.signToken(s.id, s);
        done.sent!++;
        return;
      }
      try {
        await this.api.sweepReport({
          network: 'tron',
          address: s.address,
          amount_raw: String(s.amountRaw),
          destination: s.destination,
          gas_tx: s.gasHash,
          token_tx: s.tokenHash!,
        });
      } catch (err) {
        // Not solidified for the server's node yet: told again on the next pass.
        if (err instanceof ServerRefused && err.status === 409) return;
        throw err;
      }
      await this.store.query(`update sweeps set state = 'reported' where id = $1`, [s.id]);
      done.reported!++;
      return;
    }
    // Read the solidified block before asking once more: a transaction included up to it is then
    // seen, and none can be included after it once it is past the expiration.
    const solid = await this.node.solidified();
    if (solid.timestamp > tx.raw_data.expiration) {
      if (await this.node.txInfo(tx.txID)) return;
      return this.kill(s, `the ${s.state === 'gas' ? 'TRX top-up' : 'token transfer'} expired and is in no block up to its expiration, solidified`);
    }
    // Stored before a crash and perhaps never sent: the same transaction again ('expired' waits to be declared dead).
    await this.node.broadcast(tx);
  }

  private async kill(s: OpenSweep, reason: string): Promise<void> {
    await this.store.query(`update sweeps set state = 'dead' where id = $1`, [s.id]);
    this.log.error({ network: 'tron', address: s.address, reason }, 'sweep failed');
  }

  private openSweep(address: string): Promise<OpenSweep | null> {
    return openSweepOf<string>(this.store, 'tron', address);
  }
}
