import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string;
  subject: string;
  text: string;
}

/** A real SMTP server on a free local port that keeps every mail it receives (tests only). */
export async function startMailbox(): Promise<{ url: string; mails: CapturedMail[]; waitFor: (to: string, timeoutMs?: number) => Promise<CapturedMail>; close: () => Promise<void> }> {
  const mails: CapturedMail[] = [];
  const waiters: (() => void)[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const to = Array.isArray(parsed.to) ? parsed.to.map((a) => a.text).join(',') : (parsed.to?.text ?? '');
          mails.push({ to, subject: parsed.subject ?? '', text: parsed.text ?? '' });
          waiters.splice(0).forEach((w) => w());
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const waitFor = async (to: string, timeoutMs = 10_000): Promise<CapturedMail> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = [...mails].reverse().find((m) => m.to.toLowerCase().includes(to.toLowerCase()));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  return { url: `smtp://127.0.0.1:${port}`, mails, waitFor, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
