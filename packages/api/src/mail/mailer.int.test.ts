import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestWorld, type TestWorld } from "../testing/index.ts";
import { startMailCatcher, type MailCatcher } from "../testing/mail-catcher.ts";
import { createMailer } from "./mailer.ts";

let world: TestWorld;
let catcher: MailCatcher;

beforeAll(async () => {
  world = await createTestWorld();
  catcher = await startMailCatcher();
});
afterAll(async () => {
  await catcher.close();
  await world.close();
});

describe("mailer", () => {
  it("delivers through a real SMTP server when SMTP_URL is set", async () => {
    const mailer = createMailer({ db: world.services.db, log: world.services.log, smtpUrl: catcher.url, from: "CTF <ctf@example.test>", publicUrl: "http://ctf.test/" });
    expect(mailer.delivers).toBe(true);
    expect(mailer.publicUrl).toBe("http://ctf.test");
    await mailer.send({ to: "player@example.test", subject: "Hello", text: "A link: http://ctf.test/verify" });
    const mail = await catcher.waitFor((m) => m.to.includes("player@example.test"));
    expect(mail.subject).toBe("Hello");
    expect(mail.text).toContain("http://ctf.test/verify");
    expect(await world.services.db.outboxMail.count()).toBe(0);
    await mailer.close();
  });

  it("keeps mail in the outbox and the log without SMTP_URL", async () => {
    const logged: unknown[] = [];
    const log = { info: (o: unknown) => logged.push(o), warn() {}, error() {} };
    const mailer = createMailer({ db: world.services.db, log, from: "x", publicUrl: "http://ctf.test" });
    expect(mailer.delivers).toBe(false);
    await mailer.send({ to: "someone@example.test", subject: "Outbox", text: "body" });
    const row = await world.services.db.outboxMail.findFirstOrThrow({ where: { to: "someone@example.test" } });
    expect(row).toMatchObject({ subject: "Outbox", text: "body" });
    expect(JSON.stringify(logged)).toContain("someone@example.test");
  });
});
