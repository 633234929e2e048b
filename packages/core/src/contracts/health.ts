import { z } from 'zod';
import { defineContract, ZFailure } from './define';

const ZJobs = z.object({
  enabled: z.boolean(),
  last: z.record(z.string(), z.object({ at: z.string(), outcome: z.enum(['ok', 'failed', 'skipped']), durationMs: z.number() })),
});

export const health = {
  check: defineContract({
    method: 'GET',
    path: '/health',
    auth: 'public',
    tag: 'health',
    summary: 'Database reachability, the scheduler ticks and the mail queue',
    data: z.object({
      db: z.literal('ok'),
      jobs: ZJobs,
      mail: z.union([z.object({ pending: z.number().int(), oldestAgeSeconds: z.number().int().nullable() }), z.literal('unknown')]).optional(),
    }),
    responses: { 503: ZFailure.extend({ data: z.object({ db: z.literal('down'), jobs: ZJobs }) }).describe('The database is out of reach') },
  }),
};
