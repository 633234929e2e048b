import { z } from 'zod';
import { SUPPORT_MESSAGE_MAX, SUPPORT_MESSAGE_MIN, SUPPORT_SUBJECTS } from '../constants';

export const SUPPORT_DISALLOWED_RE = /[<>{}[\]\\^~`$%&*+=|]/;
// The spec's text: 'Message contains disallowed characters (<, >, {, }, [, ], \, ^, ~, `, $, %, &, *, +, =, |)'
export const SUPPORT_DISALLOWED_MESSAGE = 'Message contains disallowed characters (<, >, {, }, [, ], \\, ^, ~, `, $, %, &, *, +, =, |)';

/** Trim, drop control characters and collapse runs of spaces: what both sides send and store. */
export function sanitizeText(value: string): string {
  // eslint-disable-next-line no-control-regex -- removing control characters is the point
  const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
  return value
    .replace(CONTROL, '')
    .replace(/[ \t]+/g, ' ')
    .trim();
}

export const ZSupportType = z
  .string({ error: 'Subject is required' })
  .transform(sanitizeText)
  .refine((v) => v.length > 0, { error: 'Subject cannot be empty.', abort: true })
  .refine((v) => (SUPPORT_SUBJECTS as readonly string[]).includes(v), 'Please select a subject');

export const ZSupportMessage = z
  .string({ error: 'Message is required' })
  .refine((v) => v.trim().length > 0, { error: 'Message is required', abort: true })
  .refine((v) => !SUPPORT_DISALLOWED_RE.test(v), { error: SUPPORT_DISALLOWED_MESSAGE, abort: true })
  .transform(sanitizeText)
  .refine((v) => v.length > 0, { error: 'Message cannot be empty.', abort: true })
  .refine((v) => v.length >= SUPPORT_MESSAGE_MIN, { error: 'Message must be at least 10 characters long', abort: true })
  .refine((v) => v.length <= SUPPORT_MESSAGE_MAX, 'Message cannot exceed 1000 characters');

/** POST /api/support */
export const ZCreateTicketRequest = z.object({ type: ZSupportType, message: ZSupportMessage });

/** POST /api/support/:id/reply: the user's answer, under the same rules as a new ticket's message. */
export const ZTicketReplyRequest = z.object({ message: ZSupportMessage });
export type TTicketReplyRequest = z.infer<typeof ZTicketReplyRequest>;

export const ZTicketIdParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,18}$/, 'Invalid id')
    .transform((v) => BigInt(v)),
});
export type TCreateTicketRequest = z.infer<typeof ZCreateTicketRequest>;
