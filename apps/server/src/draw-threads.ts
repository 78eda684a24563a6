import { Worker } from "node:worker_threads";

/** A page to draw: what the web app's renderer (apps/web/src/entry-server.tsx) is given, but its data. */
export interface DrawRequest {
  /** The page's path and query. */
  url: string;
  /** The viewer's token (the session cookie), or null for a visitor. */
  token: string | null;
  /** The viewer's chosen colour scheme (its cookie), if any. */
  colorScheme: "light" | "dark" | "auto" | null;
  /** The announcement bars the viewer closed (their cookie), as it is. */
  hiddenAnnouncements: string | null;
}

/** The renderer's answer: the app's HTML (null: drawn by the browser), its data, or a redirect. */
export interface DrawResult {
  html: string | null;
  state: string;
  redirect: string | null;
  modules?: string[];
  /** The scheme the page is drawn in whatever the viewer chose (the projector board's dark), if any. */
  forcedScheme?: "dark";
  /**
   * How long the drawing thread was busy while the page was drawn (ms): the drawing's cost, without
   * the time it waited for its data (draws drawn at once in a thread each count the others' time too).
   */
  busyMs?: number;
}

/** Runs one of the API's queries for the page's viewer, in the server's own thread. */
export type QueryCaller = (path: string, input: unknown) => Promise<unknown>;

/** What the server says to a drawing thread. */
type ToThread = { type: "draw"; id: number; request: DrawRequest } | { type: "answer"; call: number; ok: true; data: unknown } | { type: "answer"; call: number; ok: false; message: string };

/** What a drawing thread says back. */
type FromThread =
  | { type: "ready" }
  | { type: "call"; id: number; call: number; path: string; input: unknown }
  | { type: "done"; id: number; result: DrawResult }
  | { type: "failed"; id: number; message: string };

/**
 * A drawing thread: it loads the renderer from the web build and draws what it is asked, each draw
 * asking the server's thread for its data by message (the database, Redis and the API's caches are
 * the server's). Several draws run at once in a thread, as they would in the server's own.
 */
const THREAD_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { performance } = require("node:perf_hooks");
const calls = new Map();
let nextCall = 0;
const renderer = import(workerData.entry).then((module) => {
  module.configure(workerData.settings);
  return module;
});
// A renderer that cannot load fails every draw (the server then sends the static shell), not the thread.
renderer.then(
  () => parentPort.postMessage({ type: "ready" }),
  () => parentPort.postMessage({ type: "ready" }),
);
parentPort.on("message", async (message) => {
  if (message.type === "answer") {
    const call = calls.get(message.call);
    calls.delete(message.call);
    if (call) message.ok ? call.resolve(message.data) : call.reject(new Error(message.message));
    return;
  }
  const { id, request } = message;
  const call = (path, input) =>
    new Promise((resolve, reject) => {
      const n = nextCall++;
      calls.set(n, { resolve, reject });
      parentPort.postMessage({ type: "call", id, call: n, path, input });
    });
  try {
    const module = await renderer;
    const start = performance.eventLoopUtilization();
    const result = await module.render({ ...request, call });
    parentPort.postMessage({ type: "done", id, result: { ...result, busyMs: performance.eventLoopUtilization(start).active } });
  } catch (error) {
    parentPort.postMessage({ type: "failed", id, message: error instanceof Error ? error.message : String(error) });
  }
});
`;

/** A draw not answered within this long fails (the renderer gives up on its own after 5 s). */
const DRAW_ANSWER_MS = 15_000;

interface Thread {
  worker: Worker;
  /** Settles once the thread has loaded the renderer (or failed to: its draws then fail). */
  loaded: Promise<void>;
  /** Draws sent to it and not yet answered. */
  draws: Set<number>;
}

interface Draw {
  thread: Thread;
  call: QueryCaller;
  resolve: (result: DrawResult) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Threads that draw the server's pages. Drawing a page is one synchronous pass of React over the
 * app (tens of milliseconds of CPU for a signed-in player's page): in the server's own thread it
 * would hold up every API call arriving meanwhile. Here only the page's data is fetched on the
 * server's thread; the drawing runs beside it. Threads start on the first draw (a server that
 * draws no page starts none), up to `size`, each new draw going to the least busy; a thread that
 * dies fails its draws (those pages are the static shell) and is replaced by the next draw.
 */
export class DrawThreads {
  private readonly threads: Thread[] = [];
  private readonly draws = new Map<number, Draw>();
  private nextId = 0;
  private closed = false;

  constructor(
    /** The renderer's module in the web build (dist/.ssr/entry-server.js). */
    private readonly entry: string,
    private readonly settings: { footerText: string },
    private readonly size: number,
    private readonly onThreadError: (error: Error) => void = () => {},
  ) {}

  /** Draws a page in a thread, its queries answered by `call` in this thread. */
  draw(request: DrawRequest, call: QueryCaller): Promise<DrawResult> {
    if (this.closed) return Promise.reject(new Error("the server is closing"));
    const thread = this.pick();
    const id = this.nextId++;
    return new Promise<DrawResult>((resolve, reject) => {
      const timer = setTimeout(() => this.settle(id, new Error("the page's draw did not answer")), DRAW_ANSWER_MS);
      timer.unref();
      this.draws.set(id, { thread, call, resolve, reject, timer });
      thread.draws.add(id);
      this.send(thread, { type: "draw", id, request });
    });
  }

  /**
   * Settles once a thread has loaded the renderer, starting one if there is none: loading it takes
   * a second or so, which the draws waiting for it should not count as drawing.
   */
  loaded(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return (this.threads[0] ?? this.start()).loaded;
  }

  /** Stops the threads; draws under way fail. */
  async close(): Promise<void> {
    this.closed = true;
    const threads = this.threads.splice(0);
    await Promise.all(threads.map((thread) => thread.worker.terminate()));
  }

  /** The least busy thread; a new one while every thread is drawing and there is room. */
  private pick(): Thread {
    let best: Thread | undefined;
    for (const thread of this.threads) if (!best || thread.draws.size < best.draws.size) best = thread;
    if (best && (best.draws.size === 0 || this.threads.length >= this.size)) return best;
    return this.start();
  }

  private start(): Thread {
    // V8 sizes the thread's heap as it does the server's: about 100 MiB with the renderer loaded and
    // drawing. A smaller young generation (16 MiB, 80 MiB in all) cost the mixed workload a fifth of
    // its throughput in collections (measured), so it is left as it is.
    const worker = new Worker(THREAD_SOURCE, { eval: true, workerData: { entry: this.entry, settings: this.settings } });
    // A thread never keeps the process alive: the server's own handles do.
    worker.unref();
    let loaded!: () => void;
    const thread: Thread = { worker, loaded: new Promise<void>((resolve) => (loaded = resolve)), draws: new Set() };
    this.threads.push(thread);
    worker.on("message", (message: FromThread) => (message.type === "ready" ? loaded() : this.receive(thread, message)));
    const lost = (error: Error) => {
      loaded();
      const index = this.threads.indexOf(thread);
      if (index !== -1) this.threads.splice(index, 1);
      for (const id of [...thread.draws]) this.settle(id, error);
    };
    worker.on("error", (error) => {
      this.onThreadError(error);
      lost(error);
    });
    worker.on("exit", (code) => lost(new Error(`the drawing thread stopped (exit code ${code})`)));
    return thread;
  }

  private receive(thread: Thread, message: Exclude<FromThread, { type: "ready" }>): void {
    if (message.type === "done") return this.settle(message.id, null, message.result);
    if (message.type === "failed") return this.settle(message.id, new Error(message.message));
    const draw = this.draws.get(message.id);
    if (!draw) {
      this.send(thread, { type: "answer", call: message.call, ok: false, message: "the page's draw is over" });
      return;
    }
    draw.call(message.path, message.input).then(
      (data) => this.send(thread, { type: "answer", call: message.call, ok: true, data }),
      (error: unknown) => this.send(thread, { type: "answer", call: message.call, ok: false, message: error instanceof Error ? error.message : String(error) }),
    );
  }

  private send(thread: Thread, message: ToThread): void {
    try {
      thread.worker.postMessage(message);
    } catch (error) {
      // An answer that cannot be copied to the thread (no structured clone of it) fails that query
      // alone: the renderer leaves it to the browser.
      if (message.type === "answer" && message.ok) {
        this.send(thread, { type: "answer", call: message.call, ok: false, message: error instanceof Error ? error.message : String(error) });
      } else if (message.type === "draw") {
        this.settle(message.id, error instanceof Error ? error : new Error(String(error)));
      }
    }
  }

  private settle(id: number, error: Error | null, result?: DrawResult): void {
    const draw = this.draws.get(id);
    if (!draw) return;
    this.draws.delete(id);
    draw.thread.draws.delete(id);
    clearTimeout(draw.timer);
    if (error) draw.reject(error);
    else draw.resolve(result!);
  }
}
