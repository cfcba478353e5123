/** Email: the door other capabilities send mail through (the operator's SMTP server; docs/members.md, Email). */
export { createMailer, type MailOutcome, type Mailer, type OutgoingMail } from './mailer.ts'
