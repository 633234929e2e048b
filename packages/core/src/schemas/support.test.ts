import { describe, expect, it } from 'vitest';
import { SUPPORT_DISALLOWED_MESSAGE, ZCreateTicketRequest } from './support';

const msg = (r: { success: boolean; error?: { issues: { message: string }[] } }) => (r.success ? null : r.error!.issues[0]!.message);

describe('support ticket schema', () => {
  it('requires and restricts the subject', () => {
    expect(msg(ZCreateTicketRequest.safeParse({ message: 'hello there world' }))).toBe('Subject is required');
    expect(msg(ZCreateTicketRequest.safeParse({ type: 'billing', message: 'hello there world' }))).toBe('Please select a subject');
    expect(msg(ZCreateTicketRequest.safeParse({ type: '   ', message: 'hello there world' }))).toBe('Subject cannot be empty.');
  });
  it('checks the message length, characters and emptiness after sanitising', () => {
    expect(msg(ZCreateTicketRequest.safeParse({ type: 'general' }))).toBe('Message is required');
    expect(msg(ZCreateTicketRequest.safeParse({ type: 'general', message: 'too short' }))).toBe('Message must be at least 10 characters long');
    expect(msg(ZCreateTicketRequest.safeParse({ type: 'general', message: 'x'.repeat(1001) }))).toBe('Message cannot exceed 1000 characters');
    for (const ch of ['<', '>', '{', '}', '[', ']', '\\', '^', '~', '`', '$', '%', '&', '*', '+', '=', '|']) {
      expect(msg(ZCreateTicketRequest.safeParse({ type: 'general', message: `hello world ${ch} again` }))).toBe(SUPPORT_DISALLOWED_MESSAGE);
    }
    expect(msg(ZCreateTicketRequest.safeParse({ type: 'general', message: '\u0001\u0002' }))).toBe('Message cannot be empty.');
  });
  it('trims what it sends', () => {
    const r = ZCreateTicketRequest.safeParse({ type: ' deposit ', message: '   my deposit has not arrived   ' });
    expect(r.data).toEqual({ type: 'deposit', message: 'my deposit has not arrived' });
  });
});
