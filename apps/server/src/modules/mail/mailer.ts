import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** the Message-ID header, `<…@…>`; the same on every try of one outbox row, so clients collapse duplicates */
  messageId?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * SMTP when SMTP_URL is set; otherwise the dev outbox: each mail is written as an .eml file
 * under DATA_DIR/outbox (and the caller logs the OTP) so sign-up works with no mail server.
 * Every SMTP wait (connection, greeting, each reply) and the whole send are bounded by
 * `timeoutMs`, so a mail server that hangs cannot hold a send past the outbox's lease (twice it).
 */
export function createMailer(opts: { smtpUrl?: string | undefined; from: string; dataDir: string; log: FastifyBaseLogger; timeoutMs: number }): Mailer {
  if (opts.smtpUrl) {
    // The URL's own settings win; the timeouts apply where it sets none.
    const transport = nodemailer.createTransport({
      url: opts.smtpUrl,
      connectionTimeout: opts.timeoutMs,
      greetingTimeout: opts.timeoutMs,
      socketTimeout: opts.timeoutMs,
    });
    return {
      async send(m) {
        let timer: NodeJS.Timeout | undefined;
        const deadline = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(Object.assign(new Error(`SMTP send took longer than ${opts.timeoutMs} ms`), { code: 'ETIMEDOUT' })), opts.timeoutMs);
        });
        try {
          await Promise.race([transport.sendMail({ from: opts.from, ...m }), deadline]);
        } finally {
          clearTimeout(timer);
        }
      },
      close: () => transport.close(),
    };
  }
  const outbox = path.join(opts.dataDir, 'outbox');
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(m) {
      const info = await transport.sendMail({ from: opts.from, ...m });
      mkdirSync(outbox, { recursive: true });
      const file = path.join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${info.messageId.replace(/[<>@]/g, '')}.eml`);
      writeFileSync(file, info.message as Buffer);
      opts.log.info({ to: m.to, file }, 'mail written to dev outbox');
    },
    close: () => transport.close(),
  };
}

/** The Message-ID of an outbox row: its token at the sender's domain (MAIL_FROM's, else 'localhost'). */
export function messageIdOf(token: string, from: string): string {
  const domain = /@([\w.-]+)>?\s*$/.exec(from)?.[1] ?? 'localhost';
  return `<${token}@${domain}>`;
}
