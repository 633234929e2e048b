import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string;
  subject: string;
  text: string;
  /** the HTML part, when the mail has one */
  html: string;
}

/** A real SMTP server on a free local port that keeps every mail it receives (tests only). */
export async function startMailbox(port = 0): Promise<{
  url: string;
  mails: CapturedMail[];
  waitFor: (to: string, timeoutMs?: number, subject?: string) => Promise<CapturedMail>;
  close: () => Promise<void>;
}> {
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
          mails.push({ to, subject: parsed.subject ?? '', text: parsed.text ?? '', html: typeof parsed.html === 'string' ? parsed.html : '' });
          waiters.splice(0).forEach((w) => w());
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.server.address();
  const bound = typeof address === 'object' && address ? address.port : 0;
  /** The newest mail to `to` (whose subject contains `subject`, when given), waiting for it to arrive. */
  const waitFor = async (to: string, timeoutMs = 10_000, subject?: string): Promise<CapturedMail> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = [...mails].reverse().find((m) => m.to.toLowerCase().includes(to.toLowerCase()) && (!subject || m.subject.includes(subject)));
      if (found) return found;
      if (Date.now() > deadline) throw new Error(`no mail to ${to}`);
      await new Promise<void>((resolve) => {
        waiters.push(resolve);
        setTimeout(resolve, 200);
      });
    }
  };
  return { url: `smtp://127.0.0.1:${bound}`, mails, waitFor, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
