import { z } from 'zod';
import { defineContract, ZFailure } from './define';

const ZJobs = z.object({
  enabled: z.boolean(),
  last: z.record(z.string(), z.object({ at: z.string(), outcome: z.enum(['ok', 'failed', 'skipped']), durationMs: z.number() })),
});

/** Free space in DATA_DIR (PGlite only) and the floor under which health answers 503. */
const ZDisk = z.object({ free_bytes: z.number().int(), floor_bytes: z.number().int() });
/**
 * The newest full-disk or out-of-resources failure answered within the hold time, or the schema the
 * database lacks ('schema': code 'missing' or 'behind', its newest migration not applied).
 */
const ZFailureSeen = z.object({ reason: z.enum(['disk', 'resources', 'schema']), code: z.string(), at: z.string() });
/**
 * The chain gateway's watchers: a halted network is shown here until an admin resumes it; a stale
 * one (its node silent for longer than CHAIN_STALE_AFTER_S, or too few of its endpoints confirming
 * the final transfers for that long) or a disputed one (its endpoints disagreed on a transfer, held
 * until an admin dismisses it) makes health 503 `degraded`, with the reason.
 */
const ZChain = z.array(
  z.object({
    network: z.string(),
    state: z.enum(['ok', 'stale', 'halted', 'disputed', 'unknown']),
    reason: z.string().nullable(),
    /** the node's head as last seen, and its age in seconds (a frozen head shows no lag: read both) */
    head: z.number().int().nullable(),
    head_age_s: z.number().int().nullable(),
    /** the node's last answer */
    answered_at: z.string().nullable(),
    scanned_to: z.number().int().nullable(),
    final_height: z.number().int().nullable(),
    lag: z.number().int().nullable(),
    halted: z.boolean(),
    halted_reason: z.string().nullable(),
  }),
);

export const health = {
  check: defineContract({
    method: 'GET',
    path: '/health',
    auth: 'public',
    tag: 'health',
    summary:
      'Whether the server is healthy. With `Authorization: Bearer $METRICS_TOKEN` or an admin session also the details: database reachability, free disk space, the scheduler ticks, the mail queue and the chain watchers',
    data: z.object({
      status: z.literal('ok'),
      // The details, for METRICS_TOKEN or an admin session only.
      db: z.literal('ok').optional(),
      jobs: ZJobs.optional(),
      mail: z.union([z.object({ pending: z.number().int(), oldestAgeSeconds: z.number().int().nullable() }), z.literal('unknown')]).optional(),
      disk: ZDisk.optional(),
      chain: z.union([ZChain, z.literal('unknown')]).optional(),
    }),
    responses: {
      503: ZFailure.extend({
        data: z.object({
          /** down: the database is out of reach or lacks its schema; degraded: it answers, but the disk is (nearly) full or a chain network is stale or disputed */
          status: z.enum(['down', 'degraded']),
          db: z.enum(['ok', 'down']).optional(),
          jobs: ZJobs.optional(),
          disk: ZDisk.optional(),
          failure: ZFailureSeen.optional(),
          chain: ZChain.optional(),
        }),
      }).describe(
        "The database is out of reach, DATA_DIR is nearly full, a full-disk failure was answered recently, a chain node has not answered for CHAIN_STALE_AFTER_S, or a chain network's endpoints disagree on a transfer (degraded)",
      ),
    },
  }),
};
