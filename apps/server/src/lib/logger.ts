import type { LoggerOptions } from 'pino';

/**
 * pino options for the server and the CLI: human-readable lines (pino-pretty, in a worker) when a
 * person watches the terminal, one JSON object per line otherwise (containers, log shippers).
 */
export function loggerOptions(level: string, isTty = Boolean(process.stdout.isTTY)): LoggerOptions {
  return isTty
    ? { level, transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' } } }
    : { level };
}

/** The URL a listening server really answers on (not PUBLIC_URL, which may sit behind a proxy). */
export function listenUrl(address: string | { address: string; port: number } | null): string {
  if (!address || typeof address === 'string') return String(address);
  const host = address.address.includes(':') ? `[${address.address}]` : address.address;
  return `http://${host}:${address.port}`;
}
