import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export interface ReceivedMail {
  to: string[];
  subject: string;
  text: string;
}

/** Waits for a mail the run's SMTP server received (see mail-server.ts) that matches. */
export async function waitForMail(match: (mail: ReceivedMail) => boolean, timeoutMs = 15_000): Promise<ReceivedMail> {
  const dir = path.join(process.env.E2E_DATA_DIR!, "mail");
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    let files: string[] = [];
    try {
      files = readdirSync(dir).sort();
    } catch {
      files = [];
    }
    for (const file of files) {
      const mail = JSON.parse(readFileSync(path.join(dir, file), "utf8")) as ReceivedMail;
      if (match(mail)) return mail;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("no matching mail arrived");
}
