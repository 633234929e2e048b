import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  messageId: string;
}

/**
 * A real SMTP server for the fault tests whose behaviour can be switched while it runs:
 * - 'accept': takes every mail;
 * - 'refuse': answers every connection 421 (a mail server that is down or refusing);
 * - 'hold': reads a mail to its end, records it as delivered (the receiving side has it), and then
 *   never answers, so the sender waits for the reply it will not get (a crash there leaves a mail
 *   delivered but not marked sent);
 * - 'hang': takes the connection and never greets (a mail server that hangs): the sender waits
 *   until its own timeout, and nothing is delivered;
 * - 'slow': takes every mail, answering its data only after `slowMs` (a slow but working server).
 */
export type FaultyMailboxMode = 'accept' | 'refuse' | 'hold' | 'hang' | 'slow';

export async function startFaultyMailbox(mode: FaultyMailboxMode = 'accept', opts: { slowMs?: number } = {}) {
  const state = { mode };
  const slowMs = opts.slowMs ?? 3_000;
  const mails: ReceivedMail[] = [];
  let onMail: (() => void) | undefined;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    // A held connection must not keep close() waiting long.
    closeTimeout: 500,
    onConnect(_session, callback) {
      if (state.mode === 'refuse') return callback(Object.assign(new Error('Service not available, try again later'), { responseCode: 421 }));
      // No greeting, ever: the client's greeting timeout ends it (close() ends the socket).
      if (state.mode === 'hang') return;
      callback();
    },
    onData(stream, _session, callback) {
      const holding = state.mode === 'hold';
      const slow = state.mode === 'slow';
      simpleParser(stream)
        .then(async (parsed) => {
          const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(',') : (parsed.to?.text ?? '');
          // A slow server has the mail once it answers.
          if (slow) await new Promise((r) => setTimeout(r, slowMs));
          mails.push({ to, subject: parsed.subject ?? '', text: parsed.text ?? '', messageId: parsed.messageId ?? '' });
          onMail?.();
          if (!holding) callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    setMode: (m: FaultyMailboxMode) => (state.mode = m),
    /** Resolves once `n` mails have arrived in all (rejects after timeoutMs). */
    waitForCount: async (n: number, timeoutMs = 15_000) => {
      const deadline = Date.now() + timeoutMs;
      while (mails.length < n) {
        if (Date.now() > deadline) throw new Error(`${mails.length} of ${n} mails arrived in ${timeoutMs} ms`);
        await new Promise<void>((r) => {
          onMail = r;
          setTimeout(r, 100);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
