import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** What `npm run demo:chain` started, for `chain:send` (a local demo only: nothing here is a secret). */
export interface DemoChainState {
  rpcUrl: string;
  /** an account anvil keeps unlocked, holding the demo tokens */
  sender: string;
  tokens: { bsc: { address: string; decimals: number }; polygon: { address: string; decimals: number }; tron: { address: string; decimals: number } };
  tronApiUrl: string;
}

export const DEMO_DATA_DIR = path.resolve('data-demo-chain');
export const demoStatePath = () => process.env.CHAIN_DEMO_STATE ?? path.join(DEMO_DATA_DIR, 'chain-demo.json');

export function readDemoState(): DemoChainState | null {
  const file = demoStatePath();
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as DemoChainState) : null;
}
