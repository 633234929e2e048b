/** The mail module's public face: other modules queue and render mails through these only. */
export { deliverNow, prepareMailsOf, purgeExpired, queueMail, queueMails } from './outbox';
export { renderMail, usdtText } from './templates';
