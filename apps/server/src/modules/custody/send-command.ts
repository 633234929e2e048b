import { addressHex } from './derive';
import { usdtRawOf } from './amounts';

/**
 * `npm run cli -- chain:send --network bsc --to ADDRESS --amount 25`: a deposit on the local demo
 * chain of `npm run demo:chain` (anvil), sent from its unlocked demo account: a real ERC-20
 * transfer the watcher then sees like any other. Refuses anything but the demo's own chain.
 */
export async function chainSend(
  state: { rpcUrl: string; sender: string; tokens: Record<string, { address: string; decimals: number }> },
  args: { network: string; to: string; amount: string },
): Promise<string> {
  const token = state.tokens[args.network];
  if (!token) throw new Error(`--network must be bsc, polygon or tron`);
  const to = addressHex(args.network === 'tron' ? 'tron' : 'evm', args.to);
  if (!to) throw new Error(`--to is not a ${args.network === 'tron' ? 'Tron (T…)' : '0x…'} address: ${args.to}`);
  const raw = usdtRawOf(args.amount, token.decimals);
  if (raw === null || raw <= 0n) throw new Error(`--amount must be a positive amount with at most ${token.decimals} decimals`);
  const data = `0xa9059cbb${to.slice(2).padStart(64, '0')}${raw.toString(16).padStart(64, '0')}`;
  const rpc = async <T>(method: string, params: unknown[]): Promise<T> => {
    const res = await fetch(state.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await res.json()) as { result?: T; error?: { message: string } };
    if (body.error) throw new Error(`${method}: ${body.error.message}`);
    return body.result as T;
  };
  const chainId = await rpc<string>('eth_chainId', []);
  if (chainId !== '0x7a69') throw new Error(`${state.rpcUrl} is not the local demo chain (chain id ${chainId})`);
  const hash = await rpc<string>('eth_sendTransaction', [{ from: state.sender, to: token.address, data }]);
  return `Sent ${args.amount} USDT on ${args.network} to ${args.to}: transaction ${args.network === 'tron' ? hash.slice(2) : hash}`;
}
