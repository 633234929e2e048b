import { z } from 'zod';
import { defineContract } from './define';

export const internal = {
  /** Only the server process started with a control secret has it; loopback and the secret header are checked in the handler. */
  cli: defineContract({
    method: 'POST',
    path: '/internal/cli',
    auth: 'public',
    tag: 'internal',
    summary: 'CLI commands run inside the serving process',
    hidden: true,
    body: z.object({ command: z.string().max(100), args: z.array(z.string().max(500)).max(20) }),
    data: z.unknown(),
  }),
};
