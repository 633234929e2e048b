import { signer, type TSignerPayout, type TSignerReport, type TSweepCandidate, type TSweepReport } from '@app/core/contracts';
import { contractPath } from '@app/core/contracts';
import type { z } from 'zod';

/**
 * The server's internal signer routes, over HTTP with the signer's bearer token. Every answer is
 * checked against the shared contract: a server that answers something else stops the tick.
 */
export interface ServerApi {
  payouts(): Promise<TSignerPayout[]>;
  report(id: string, report: TSignerReport): Promise<void>;
  heartbeat(body: z.input<typeof signer.heartbeat.body>): Promise<void>;
  sweeps(): Promise<TSweepCandidate[]>;
  sweepReport(report: TSweepReport): Promise<void>;
}

export class ServerRefused extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export function serverApi(baseUrl: string, token: string): ServerApi {
  const send = async (method: 'GET' | 'POST', path: string, body?: unknown) => {
    const res = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      signal: AbortSignal.timeout(15_000),
    });
    const json = (await res.json().catch(() => ({}))) as { success?: boolean; code?: string; message?: string; data?: unknown };
    if (!res.ok || json.success !== true) throw new ServerRefused(res.status, json.code ?? 'UNKNOWN', json.message ?? `HTTP ${res.status}`);
    return json.data;
  };
  return {
    payouts: async () => signer.payouts.data.parse(await send('GET', contractPath(signer.payouts))).payouts,
    report: async (id, report) => {
      await send('POST', contractPath(signer.report, { id }), report);
    },
    sweeps: async () => signer.sweeps.data.parse(await send('GET', contractPath(signer.sweeps))).sweeps,
    sweepReport: async (report) => {
      await send('POST', contractPath(signer.sweepReport), report);
    },
    heartbeat: async (body) => {
      await send('POST', contractPath(signer.heartbeat), body);
    },
  };
}
