import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { threadId } from "node:worker_threads";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { DrawThreads } from "./draw-threads.ts";

// A renderer of the web build's shape (configure, render with a query caller), whose pages say
// which thread drew them and what their queries answered; some addresses misbehave on purpose.
const RENDERER = `
import { threadId } from "node:worker_threads";
let footer = "";
export function configure(settings) { footer = settings.footerText; }
export async function render({ url, token, call }) {
  if (url === "/busy") { const until = Date.now() + 300; while (Date.now() < until); }
  if (url === "/exit") process.exit(3);
  if (url === "/throws") throw new Error("drawing failed");
  if (url === "/never") return new Promise(() => {});
  let data;
  try { data = await call("page.data", { url }); } catch (error) { data = "refused: " + error.message; }
  const kinds = data && typeof data === "object" ? Object.fromEntries(Object.entries(data).map(([key, value]) => [key, value instanceof Date ? "date" : typeof value])) : null;
  return { html: JSON.stringify({ thread: threadId, url, token, footer, data, kinds }), state: "{}", redirect: null };
}
`;

const dir = mkdtempSync(path.join(os.tmpdir(), "draw-threads-"));
const entry = path.join(dir, "entry-server.mjs");
writeFileSync(entry, RENDERER);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const request = (url: string, token: string | null = null) => ({ url, token, colorScheme: null, hiddenAnnouncements: null });
const pageOf = (result: { html: string | null }) => JSON.parse(result.html!) as { thread: number; url: string; token: string | null; footer: string; data: unknown; kinds: unknown };

let threads: DrawThreads | undefined;
afterEach(async () => {
  await threads?.close();
  threads = undefined;
});

describe("drawing threads", () => {
  it("draw a page in another thread, its queries answered by the server's thread with the viewer's data", async () => {
    threads = new DrawThreads(pathToFileURL(entry).href, { footerText: "Hosted by us" }, 2);
    const asked: string[] = [];
    const page = pageOf(
      await threads.draw(request("/campaign", "token-1"), async (procedure, input) => {
        asked.push(`${threadId} ${procedure}`);
        return { input, when: new Date(0) };
      }),
    );
    expect(page.thread).not.toBe(threadId);
    expect(page).toMatchObject({ url: "/campaign", token: "token-1", footer: "Hosted by us" });
    // A date crosses as a date (structured clone); the query ran here.
    expect(page.data).toEqual({ input: { url: "/campaign" }, when: "1970-01-01T00:00:00.000Z" });
    expect(page.kinds).toEqual({ input: "object", when: "date" });
    expect(asked).toEqual([`${threadId} page.data`]);
  });

  it("keep the server's thread free while a page is drawn", async () => {
    threads = new DrawThreads(pathToFileURL(entry).href, { footerText: "" }, 1);
    // The thread is started (its module loaded) before the timing.
    await threads.draw(request("/"), async () => null);
    let drawn = false;
    const draw = threads.draw(request("/busy"), async () => null).then(() => (drawn = true));
    // A timer set after the draw began fires while the thread draws (300 ms of busy work).
    const firedBeforeDrawn = await new Promise<boolean>((resolve) => setTimeout(() => resolve(!drawn), 10));
    expect(firedBeforeDrawn).toBe(true);
    await draw;
  });

  it("say how long the thread was busy drawing, not counting the time a draw waited for its data", async () => {
    threads = new DrawThreads(pathToFileURL(entry).href, { footerText: "" }, 1);
    await threads.draw(request("/"), async () => null);
    // 300 ms of work in the thread.
    const busy = await threads.draw(request("/busy"), async () => null);
    expect(busy.busyMs).toBeGreaterThanOrEqual(250);
    // 300 ms waiting for its query (a copy busy with calls), with hardly any work.
    const started = performance.now();
    const waited = await threads.draw(request("/"), () => new Promise((resolve) => setTimeout(() => resolve("late"), 300)));
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect(pageOf(waited).data).toBe("late");
    expect(waited.busyMs).toBeLessThan(100);
  });

  it("spread draws over threads up to the size, each to the least busy", async () => {
    threads = new DrawThreads(pathToFileURL(entry).href, { footerText: "" }, 2);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const draws = [1, 2, 3, 4].map((n) => threads!.draw(request(`/p${n}`), () => held.then(() => n)));
    release();
    const pages = (await Promise.all(draws)).map(pageOf);
    expect(pages.map((page) => page.data)).toEqual([1, 2, 3, 4]);
    expect(new Set(pages.map((page) => page.thread)).size).toBe(2);
  });

  it("fail a query the server refuses, or whose answer cannot be copied, in the draw alone", async () => {
    threads = new DrawThreads(pathToFileURL(entry).href, { footerText: "" }, 1);
    expect(pageOf(await threads.draw(request("/"), () => Promise.reject(new Error("not allowed")))).data).toBe("refused: not allowed");
    expect(pageOf(await threads.draw(request("/"), async () => ({ run: () => 1 }))).data).toMatch(/^refused: .*could not be cloned/);
    // The thread still draws.
    expect(pageOf(await threads.draw(request("/"), async () => "fine")).data).toBe("fine");
  });

  it("fail the draw when the renderer throws or its thread stops; the next draw has a new thread", async () => {
    threads = new DrawThreads(pathToFileURL(entry).href, { footerText: "" }, 1);
    await expect(threads.draw(request("/throws"), async () => null)).rejects.toThrow("drawing failed");
    const first = pageOf(await threads.draw(request("/"), async () => null)).thread;
    await expect(threads.draw(request("/exit"), async () => null)).rejects.toThrow(/exit code 3/);
    const next = pageOf(await threads.draw(request("/"), async () => null)).thread;
    expect(next).not.toBe(first);
  });

  it("say when a thread has loaded the renderer, starting one if none runs (or when it failed to)", async () => {
    threads = new DrawThreads(pathToFileURL(entry).href, { footerText: "" }, 1);
    await threads.loaded();
    expect(pageOf(await threads.draw(request("/"), async () => "ready")).data).toBe("ready");
    const missing = new DrawThreads(pathToFileURL(path.join(dir, "missing.mjs")).href, { footerText: "" }, 1);
    await missing.loaded();
    await missing.close();
  });

  it("fail a renderer that cannot load, and draws under way when closed", async () => {
    const missing = new DrawThreads(pathToFileURL(path.join(dir, "missing.mjs")).href, { footerText: "" }, 1);
    await expect(missing.draw(request("/"), async () => null)).rejects.toThrow(/Cannot find module|ERR_MODULE_NOT_FOUND/);
    await missing.close();
    threads = new DrawThreads(pathToFileURL(entry).href, { footerText: "" }, 1);
    const never = threads.draw(request("/never"), async () => null);
    await threads.close();
    await expect(never).rejects.toThrow(/stopped/);
    await expect(threads.draw(request("/"), async () => null)).rejects.toThrow("the server is closing");
  });
});
