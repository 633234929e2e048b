import { createHmac } from 'node:crypto';

/** The key of an e-mail (trimmed, lower-cased) for challenges, the guess budget, failed-login counts and the per-e-mail limit: no e-mail is stored in clear. */
export const emailKey = (secret: string, email: string) => createHmac('sha256', secret).update(`email:${email.trim().toLowerCase()}`).digest('hex');
