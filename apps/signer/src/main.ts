import { loadSignerConfig, SignerConfigError } from './config';
import { readMnemonic } from './mnemonic';
import { startSigner } from './run';

/**
 * `npm run signer`: the signer process. No listening port: it calls the server's internal routes
 * and the chains itself. Stops on SIGTERM/SIGINT after the pass in progress.
 */
const log = {
  info: (o: object, m: string) => console.log(JSON.stringify({ level: 'info', msg: m, ...o })),
  warn: (o: object, m: string) => console.warn(JSON.stringify({ level: 'warn', msg: m, ...o })),
  error: (o: object, m: string) => console.error(JSON.stringify({ level: 'error', msg: m, ...o })),
};

try {
  const config = loadSignerConfig(process.env, process.argv.slice(2));
  const mnemonic = readMnemonic(config.mnemonicFile);
  const signer = await startSigner(config, mnemonic, log);
  log.info(
    { hot: signer.hotAddress, networks: [...config.networks.map((n) => n.network), ...(config.tron ? ['tron'] : [])], server: config.serverUrl },
    'signer started',
  );
  const stop = () => void signer.stop().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
} catch (err) {
  if (err instanceof SignerConfigError) {
    console.error(err.message);
    process.exit(1);
  }
  throw err;
}
