import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { startMailCatcher } from "@flagship/api/testing/mail-catcher";

/**
 * A real SMTP server (the smtp-server package) for the whole run, on the port the e2e server's
 * SMTP_URL names. Each mail it receives is written as JSON under E2E_DATA_DIR/mail, where the
 * specs (in other processes) read it.
 */
export default async function startMailServer(): Promise<() => Promise<void>> {
  const dir = path.join(process.env.E2E_DATA_DIR!, "mail");
  mkdirSync(dir, { recursive: true });
  const catcher = await startMailCatcher(Number(process.env.E2E_SMTP_PORT));
  let count = 0;
  const timer = setInterval(() => {
    while (count < catcher.mails.length) {
      const mail = catcher.mails[count]!;
      count += 1;
      writeFileSync(path.join(dir, `${String(count).padStart(5, "0")}.json`), JSON.stringify({ to: mail.to, subject: mail.subject, text: mail.text }));
    }
  }, 50);
  return async () => {
    clearInterval(timer);
    await catcher.close();
  };
}
