import { microToDecimal } from '@app/core';
/**
 * Every mail the product sends, as text and HTML that look like the product in a mail client.
 * Notices carry no secrets (no codes, tokens or passwords); only the code mails carry their code.
 */
export type MailKind =
  | 'otp_verify'
  | 'otp_login'
  | 'otp_reset'
  | 'deposit_credited'
  | 'withdrawal_requested'
  | 'withdrawal_approved'
  | 'withdrawal_sent'
  | 'withdrawal_completed'
  | 'withdrawal_rejected'
  | 'password_changed'
  | 'password_reset'
  | 'two_factor_enabled'
  | 'two_factor_disabled'
  | 'code_budget_spent'
  | 'ticket_answered';

/** Values the templates show; amounts arrive already formatted ('50.00'). */
export type MailPayload = Record<string, string>;

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const BRAND = 'USDT Stake';

interface Body {
  subject: string;
  heading: string;
  lines: string[];
  /** label → value rows shown as a small table */
  facts?: [string, string][];
  code?: string;
  action?: { label: string; path: string };
  warning?: string;
}

const notMe = 'If this was not you, change your password at once and contact support.';

function body(kind: MailKind, p: MailPayload): Body {
  switch (kind) {
    case 'otp_verify':
      return {
        subject: 'Your verification code',
        heading: 'Verify your e-mail',
        lines: [`Your ${BRAND} verification code is ${p.code}. It is valid for 10 minutes.`, 'If you did not ask for it, ignore this mail.'],
        code: p.code!,
      };
    case 'otp_login':
      return {
        subject: 'Your sign-in code',
        heading: 'Confirm it is you',
        lines: [
          `There were several failed sign-in attempts on your account, so we ask for this code as well as your password. Your ${BRAND} sign-in code is ${p.code}. It is valid for 10 minutes.`,
          notMe,
        ],
        code: p.code!,
      };
    case 'otp_reset':
      return {
        subject: 'Your password reset code',
        heading: 'Reset your password',
        lines: [
          `Your ${BRAND} password reset code is ${p.code}. It is valid for 10 minutes.`,
          'If you did not ask to reset your password, ignore this mail: your password stays as it is.',
        ],
        code: p.code!,
      };
    case 'deposit_credited':
      return {
        subject: `Deposit credited: ${p.amount} USDT`,
        heading: 'Your deposit has arrived',
        lines: [`We credited ${p.amount} USDT to your deposit balance. You can stake it now.`],
        facts: [
          ['Amount', `${p.amount} USDT`],
          ['Network', p.network ?? ''],
        ],
        action: { label: 'Stake now', path: '/staking' },
      };
    case 'withdrawal_requested':
      return {
        subject: `Withdrawal requested: ${p.amount} USDT`,
        heading: 'We received your withdrawal request',
        lines: ['Your withdrawal is waiting for review. We will write again when it is paid.', notMe],
        facts: [
          ['Amount', `${p.amount} USDT`],
          ['Fee', `${p.fee} USDT`],
          ['You receive', `${p.receive} USDT`],
          ['Network', p.network ?? ''],
          ['To address', p.address ?? ''],
        ],
        action: { label: 'View transactions', path: '/transaction' },
      };
    case 'withdrawal_approved':
      return {
        subject: `Withdrawal approved: ${p.receive} USDT`,
        heading: 'Your withdrawal was approved',
        lines: ['It will be sent to your wallet shortly. We will write again when it is on its way.'],
        facts: [
          ['You receive', `${p.receive} USDT`],
          ['Network', p.network ?? ''],
          ['To address', p.address ?? ''],
        ],
        action: { label: 'View transactions', path: '/transaction' },
      };
    case 'withdrawal_sent':
      return {
        subject: `Withdrawal sent: ${p.receive} USDT`,
        heading: 'Your withdrawal is on its way',
        lines: [`We sent ${p.receive} USDT to your wallet. It is complete once its block is final, usually within minutes.`],
        facts: [
          ['You receive', `${p.receive} USDT`],
          ['Network', p.network ?? ''],
          ['Transaction hash', p.tx_hash ?? ''],
          ['Explorer', p.explorer ?? ''],
        ],
        action: { label: 'View transactions', path: '/transaction' },
      };
    case 'withdrawal_completed':
      return {
        subject: `Withdrawal paid: ${p.receive} USDT`,
        heading: 'Your withdrawal has been paid',
        lines: [`We sent ${p.receive} USDT to your wallet.`],
        facts: [
          ['Amount', `${p.amount} USDT`],
          ['You receive', `${p.receive} USDT`],
          ['Network', p.network ?? ''],
          ['Transaction hash', p.tx_hash ?? ''],
        ],
        action: { label: 'View transactions', path: '/transaction' },
      };
    case 'withdrawal_rejected':
      return {
        subject: `Withdrawal rejected: ${p.amount} USDT`,
        heading: 'Your withdrawal was rejected',
        lines: [`The full amount, ${p.amount} USDT, is back in your balance.`],
        facts: [
          ['Amount', `${p.amount} USDT`],
          ['Reason', p.reason ?? ''],
        ],
        action: { label: 'Contact support', path: '/support' },
      };
    case 'ticket_answered':
      // Support's own words (an admin wrote them); the user's message is not repeated here.
      return {
        subject: `Support answered your ticket #${p.ticket}`,
        heading: p.closed ? 'Your ticket was answered and closed' : 'Support answered your ticket',
        lines: [
          `Our reply to your ${p.subject ?? ''} ticket #${p.ticket}:`,
          p.message ?? '',
          p.closed ? 'The ticket is closed. You can still reply on the Support page if something is missing.' : 'You can reply on the Support page.',
        ],
        action: { label: 'Open Support', path: '/support' },
      };
    case 'password_changed':
      return {
        subject: 'Your password was changed',
        heading: 'Password changed',
        lines: ['The password of your account was changed. Your other devices were signed out.', notMe],
        action: { label: 'Review security', path: '/security' },
      };
    case 'password_reset':
      return {
        subject: 'Your password was reset',
        heading: 'Password reset',
        lines: ['The password of your account was reset with a code sent to this address. Every device was signed out.', notMe],
        action: { label: 'Log in', path: '/login' },
      };
    case 'two_factor_enabled':
      return {
        subject: 'Two-factor authentication is on',
        heading: 'Two-factor authentication turned on',
        lines: ['From now on, signing in and withdrawing need a code from your authenticator app.', notMe],
        action: { label: 'Review security', path: '/security' },
      };
    case 'code_budget_spent':
      return {
        subject: 'Too many wrong codes on your account',
        heading: 'We stopped accepting codes for a while',
        lines: [
          'Wrong codes (sign-in, password reset or two-factor codes) were entered for your account too many times, so for now every code is refused, also a right one. It works again within an hour; after many more tries, within a day.',
          'Your password and your balance are unchanged. You can still sign in with your password if your account does not ask for a code.',
        ],
        warning: notMe,
        action: { label: 'Review security', path: '/security' },
      };
    case 'two_factor_disabled':
      return {
        subject: 'Two-factor authentication is off',
        heading: 'Two-factor authentication turned off',
        lines: ['Signing in and withdrawing no longer need an authenticator code.'],
        warning: notMe,
        action: { label: 'Review security', path: '/security' },
      };
  }
}

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** Renders one mail. `name` greets the user; `publicUrl` makes the button's link absolute. */
export function renderMail(kind: MailKind, payload: MailPayload, name: string, publicUrl: string): RenderedMail {
  const b = body(kind, payload);
  const link = b.action ? `${publicUrl}${b.action.path}` : undefined;
  const text = [
    `Hello ${name},`,
    '',
    ...b.lines.flatMap((l) => [l, '']),
    ...(b.facts ? [...b.facts.map(([k, v]) => `${k}: ${v}`), ''] : []),
    ...(b.warning ? [b.warning, ''] : []),
    ...(b.action && link ? [`${b.action.label}: ${link}`, ''] : []),
    `— ${BRAND}`,
  ].join('\n');

  const facts = b.facts
    ? `<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="margin:16px 0;border-collapse:collapse">${b.facts
        .map(
          ([k, v]) =>
            `<tr><td style="padding:8px 0;border-bottom:1px solid #e2e8f0;color:#475569;font-size:14px">${esc(k)}</td><td style="padding:8px 0;border-bottom:1px solid #e2e8f0;color:#0f172a;font-size:14px;font-weight:600;text-align:right;word-break:break-all">${esc(v)}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const code = b.code
    ? `<p style="margin:20px 0;text-align:center"><span style="display:inline-block;padding:12px 20px;border-radius:10px;background:#ecfdf5;color:#065f46;font-size:28px;letter-spacing:8px;font-weight:700;font-family:Menlo,Consolas,monospace">${esc(b.code)}</span></p>`
    : '';
  const action =
    b.action && link
      ? `<p style="margin:24px 0 8px"><a href="${esc(link)}" style="display:inline-block;padding:12px 22px;border-radius:10px;background:#047857;color:#ffffff;text-decoration:none;font-weight:600;font-size:15px">${esc(b.action.label)}</a></p>`
      : '';
  const warning = b.warning
    ? `<p style="margin:16px 0;padding:12px;border-radius:8px;background:#fef2f2;color:#991b1b;font-size:14px">${esc(b.warning)}</p>`
    : '';
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${esc(b.subject)}</title></head>
<body style="margin:0;padding:0;background:#f1f5f9;font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f1f5f9;padding:24px 12px"><tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px">
<tr><td style="padding:0 4px 16px"><span style="display:inline-block;width:32px;height:32px;border-radius:50%;background:#047857;color:#fff;text-align:center;line-height:32px;font-weight:700;vertical-align:middle">₮</span> <span style="font-size:18px;font-weight:700;color:#0f172a;vertical-align:middle">${BRAND}</span></td></tr>
<tr><td style="background:#ffffff;border-radius:16px;padding:28px 24px;box-shadow:0 1px 3px rgba(15,23,42,.08)">
<h1 style="margin:0 0 12px;font-size:22px;color:#0f172a">${esc(b.heading)}</h1>
<p style="margin:0 0 12px;color:#334155;font-size:15px">Hello ${esc(name)},</p>
${b.lines.map((l) => `<p style="margin:0 0 12px;color:#334155;font-size:15px;line-height:1.5">${esc(l)}</p>`).join('\n')}
${code}${facts}${warning}${action}
</td></tr>
<tr><td style="padding:16px 4px;color:#64748b;font-size:12px;line-height:1.5">You receive this mail because you have an account at ${BRAND}. We never ask for your password or codes by mail or chat.</td></tr>
</table></td></tr></table></body></html>`;
  return { subject: b.subject, text, html };
}

/** Micro-units as mail text: exact, at least two decimals ('47.5' → '47.50', '0.057' stays). */
export function usdtText(micro: bigint): string {
  const [whole, frac = ''] = microToDecimal(micro).split('.');
  return `${whole}.${frac.padEnd(2, '0')}`;
}
