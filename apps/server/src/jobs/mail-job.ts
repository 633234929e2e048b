import { drainOutbox } from '../modules/mail/outbox';
import type { Job } from './scheduler';

/** Sends queued mail that prompt delivery missed (a restart, a mail server that was down). */
export const mailJob: Job = { name: 'mail:outbox', intervalMs: 10_000, run: (ctx, _log, stopping) => drainOutbox(ctx, stopping) };
