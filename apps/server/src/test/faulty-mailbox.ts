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
 *   delivered but not marked sent).
 */
export async function startFaultyMailbox(mode: 'accept' | 'refuse' | 'hold' = 'accept') {
  const state = { mode };
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
      callback();
    },
    onData(stream, _session, callback) {
      const holding = state.mode === 'hold';
      simpleParser(stream)
        .then((parsed) => {
          const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(',') : (parsed.to?.text ?? '');
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
    setMode: (m: 'accept' | 'refuse' | 'hold') => (state.mode = m),
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
