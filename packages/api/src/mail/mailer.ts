import type { Db } from "@flagship/db";
import nodemailer, { type Transporter } from "nodemailer";
import type { Logger } from "../context.ts";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Sends the site's mail: through SMTP when `SMTP_URL` is set, else into the log and the outbox. */
export interface Mailer {
  /**
   * True when mail really leaves the server. Only then must new accounts verify their address:
   * without a transport nobody could ever receive the link.
   */
  readonly delivers: boolean;
  /** The site's public address, for links in mail. */
  readonly publicUrl: string;
  send(message: MailMessage): Promise<void>;
  close(): Promise<void>;
}

export class SmtpMailer implements Mailer {
  readonly delivers = true;
  private readonly transport: Transporter;

  constructor(
    smtpUrl: string,
    private readonly from: string,
    readonly publicUrl: string,
  ) {
    this.transport = nodemailer.createTransport(smtpUrl);
  }

  async send(message: MailMessage): Promise<void> {
    await this.transport.sendMail({ from: this.from, ...message });
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}

/** Development mail: printed to the log and kept in the outbox table, which staff read in the app. */
export class OutboxMailer implements Mailer {
  readonly delivers = false;

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    readonly publicUrl: string,
  ) {}

  async send(message: MailMessage): Promise<void> {
    this.log.info({ mail: { to: message.to, subject: message.subject, text: message.text } }, "mail kept in the outbox (no SMTP_URL)");
    await this.db.outboxMail.create({
      data: { to: message.to, subject: message.subject, text: message.text, html: message.html ?? "" },
      select: { id: true },
    });
  }

  async close(): Promise<void> {}
}

export function createMailer(options: { db: Db; log: Logger; smtpUrl?: string | undefined; from: string; publicUrl: string }): Mailer {
  const publicUrl = options.publicUrl.replace(/\/$/, "");
  return options.smtpUrl ? new SmtpMailer(options.smtpUrl, options.from, publicUrl) : new OutboxMailer(options.db, options.log, publicUrl);
}

/**
 * Sends without failing the caller's request: the account change already happened, and the user
 * can ask for the mail again (resend, new reset request). The failure is logged for operators.
 */
export async function sendQuietly(mailer: Mailer, log: Logger, message: MailMessage): Promise<void> {
  try {
    await mailer.send(message);
  } catch (error) {
    log.error({ err: error, to: message.to, subject: message.subject }, "could not send mail");
  }
}
