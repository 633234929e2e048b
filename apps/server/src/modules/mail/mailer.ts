import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}
export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * SMTP when SMTP_URL is set; otherwise the dev outbox: each mail is written as an .eml file
 * under DATA_DIR/outbox (and the caller logs the OTP) so sign-up works with no mail server.
 */
export function createMailer(opts: { smtpUrl?: string | undefined; from: string; dataDir: string; log: FastifyBaseLogger }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(m) {
        await transport.sendMail({ from: opts.from, ...m });
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
