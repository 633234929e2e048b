import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';

export interface JobsHandle {
  stop(): Promise<void>;
}

/** The jobs runner; jobs are added by the modules that own them (ROI, payment polling, expiry). */
export function startJobs(_ctx: AppContext, log: FastifyBaseLogger): JobsHandle {
  log.debug('jobs runner started');
  return { stop: async () => {} };
}
