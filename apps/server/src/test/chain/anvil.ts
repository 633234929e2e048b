import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import {
  createPublicClient,
  createWalletClient,
  defineChain,
  encodeFunctionData,
  http,
  type Abi,
  type Hex,
  type PublicClient,
  type WalletClient,
  type Transport,
  type Chain,
  type Account,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

const artifact = JSON.parse(readFileSync(path.join(import.meta.dirname, 'test-token.json'), 'utf8')) as { abi: Abi; bytecode: Hex };
export const TOKEN_ABI = artifact.abi;

/**
 * The anvil binary of the pinned npm package `@foundry-rs/anvil`: the package ships it in a
 * platform package (`@foundry-rs/anvil-linux-amd64`, …), installed as an optional dependency, so
 * nothing is downloaded from anywhere else.
 */
export function anvilBinary(): string {
  const os = process.platform === 'win32' ? 'win32' : process.platform;
  const arch = process.arch === 'x64' ? 'amd64' : process.arch;
  const require = createRequire(import.meta.url);
  const pkg = require.resolve(`@foundry-rs/anvil-${os}-${arch}/package.json`);
  return path.join(path.dirname(pkg), 'bin', process.platform === 'win32' ? 'anvil.exe' : 'anvil');
}

export interface Anvil {
  url: string;
  proc: ChildProcess;
  chain: Chain;
  publicClient: PublicClient;
  /** a funded account of the test's own (the dev accounts are our users' addresses under the test mnemonic) */
  wallet: WalletClient<Transport, Chain, Account>;
  rpc<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  head(): Promise<bigint>;
  mine(blocks: number): Promise<void>;
  /** anvil_reorg: replaces the last `depth` blocks, optionally with these signed transactions at block offsets */
  reorg(depth: number, txs?: [Hex, number][]): Promise<void>;
  deployToken(decimals: number, symbol?: string): Promise<`0x${string}`>;
  /** mints `raw` to `to`; a Transfer(0x0 → to) in a block of its own */
  mint(token: string, to: string, raw: bigint): Promise<{ txHash: Hex; blockNumber: bigint; blockHash: Hex }>;
  /** signs (without sending) a mint: for re-including it in a reorg */
  signMint(token: string, to: string, raw: bigint, nonce?: number): Promise<Hex>;
  close(): Promise<void>;
}

/** A fresh anvil on a free port (`--port 0`, the port read from its banner) or the one given (the demo), killed by close(). */
export async function startAnvil(opts: { args?: string[]; port?: number } = {}): Promise<Anvil> {
  const proc = spawn(anvilBinary(), ['--port', String(opts.port ?? 0), '--host', '127.0.0.1', '--chain-id', '31337', ...(opts.args ?? [])], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`anvil did not start: ${out}`)), 30_000);
    proc.on('exit', (code) => reject(new Error(`anvil exited (${code}): ${out}`)));
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Listening on 127\.0\.0\.1:(\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    });
    proc.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  });
  // Drain its output from here on (a full pipe would stall it).
  proc.stdout!.removeAllListeners('data').resume();
  proc.stderr!.resume();
  const url = `http://127.0.0.1:${port}`;
  const chain = defineChain({
    id: 31337,
    name: 'anvil',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [url] } },
  });
  const publicClient = createPublicClient({ chain, transport: http(url, { retryCount: 0 }) }) as PublicClient;
  let id = 1;
  const rpc = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: id++, method, params }),
    });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  };
  const account = privateKeyToAccount(generatePrivateKey());
  await rpc('anvil_setBalance', [account.address, '0x56BC75E2D63100000']);
  const wallet = createWalletClient({ account, chain, transport: http(url, { retryCount: 0 }) });

  const receipt = async (hash: Hex) => {
    const r = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (r.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    return r;
  };

  return {
    url,
    proc,
    chain,
    publicClient,
    wallet,
    rpc,
    head: async () => BigInt(await rpc<string>('eth_blockNumber')),
    mine: async (blocks) => {
      if (blocks > 0) await rpc('anvil_mine', [`0x${blocks.toString(16)}`]);
    },
    reorg: async (depth, txs = []) => {
      await rpc('anvil_reorg', [depth, txs]);
    },
    deployToken: async (decimals, symbol = 'USDT') => {
      const hash = await wallet.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args: ['Tether USD (test)', symbol, decimals] });
      const r = await receipt(hash);
      return r.contractAddress!.toLowerCase() as `0x${string}`;
    },
    mint: async (token, to, raw) => {
      const hash = await wallet.writeContract({ address: token as Hex, abi: artifact.abi, functionName: 'mint', args: [to as Hex, raw] });
      const r = await receipt(hash);
      return { txHash: hash, blockNumber: r.blockNumber, blockHash: r.blockHash };
    },
    signMint: async (token, to, raw, nonce) => {
      const data = encodeFunctionData({ abi: artifact.abi, functionName: 'mint', args: [to as Hex, raw] });
      const n = nonce ?? (await publicClient.getTransactionCount({ address: account.address, blockTag: 'pending' }));
      const gas = 100_000n;
      const fees = await publicClient.estimateFeesPerGas();
      return account.signTransaction({
        chainId: 31337,
        to: token as Hex,
        data,
        nonce: n,
        gas,
        maxFeePerGas: fees.maxFeePerGas * 2n,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        type: 'eip1559',
      });
    },
    close: async () => {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await exited;
    },
  };
}
