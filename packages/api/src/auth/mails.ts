import type { MailMessage } from "../mail/mailer.ts";

export function verificationMail(to: string, username: string, eventName: string, link: string): MailMessage {
  return {
    to,
    subject: `Verify your email for ${eventName}`,
    text: [
      `Hi ${username},`,
      "",
      `Thanks for registering for ${eventName}. Open this link to verify your email address:`,
      "",
      link,
      "",
      "The link works once and expires in 48 hours. If you did not register, ignore this email.",
    ].join("\n"),
  };
}

export function passwordResetMail(to: string, username: string, eventName: string, link: string): MailMessage {
  return {
    to,
    subject: `Reset your ${eventName} password`,
    text: [
      `Hi ${username},`,
      "",
      `Someone asked to reset the password of your ${eventName} account. Open this link to choose a new one:`,
      "",
      link,
      "",
      "The link works once and expires in 1 hour. If you did not ask for this, ignore this email: your password stays as it is.",
    ].join("\n"),
  };
}
