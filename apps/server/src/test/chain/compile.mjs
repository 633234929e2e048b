// Compiles TestToken.sol with the solc npm package (pure JS, offline) into test-token.json:
// `node apps/server/src/test/chain/compile.mjs`. The artifact is committed so tests need no compiler run.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import solc from 'solc';

const dir = import.meta.dirname;
const input = {
  language: 'Solidity',
  sources: { 'TestToken.sol': { content: readFileSync(path.join(dir, 'TestToken.sol'), 'utf8') } },
  settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'paris', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
};
const out = JSON.parse(solc.compile(JSON.stringify(input)));
const errors = (out.errors ?? []).filter((e) => e.severity === 'error');
if (errors.length) throw new Error(errors.map((e) => e.formattedMessage).join('\n'));
const c = out.contracts['TestToken.sol'].TestToken;
writeFileSync(
  path.join(dir, 'test-token.json'),
  JSON.stringify({ compiler: solc.version(), abi: c.abi, bytecode: `0x${c.evm.bytecode.object}` }, null, 1) + '\n',
);
console.log('test-token.json written with', solc.version());
