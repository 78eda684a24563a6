import cliProgress from "cli-progress";

/** One progress bar: uploads count bytes, image builds count Dockerfile steps. */
export interface Bar {
  update(value: number, total?: number): void;
  increment(by: number): void;
  finish(): void;
  stop(): void;
}

const NO_BAR: Bar = { update() {}, increment() {}, finish() {}, stop() {} };

/**
 * Progress bars on the terminal (stderr), so a person sees long uploads and builds move. When
 * stderr is not a terminal (a script, CI) there are none, and the output stays the summary.
 */
export class Progress {
  private readonly bars: cliProgress.MultiBar | null;

  constructor(stream: NodeJS.WriteStream = process.stderr) {
    this.bars = stream.isTTY
      ? new cliProgress.MultiBar({ hideCursor: true, clearOnComplete: false, stopOnComplete: false, stream }, cliProgress.Presets.shades_classic)
      : null;
  }

  bar(label: string, total: number): Bar {
    if (!this.bars) return NO_BAR;
    const format = ` ${label.replace(/[{}]/g, "")} [{bar}] {percentage}% | {value}/{total}`;
    const bar = this.bars.create(Math.max(total, 1), 0, {}, { format });
    let value = 0;
    let stopped = false;
    return {
      update: (next, newTotal) => {
        value = next;
        if (newTotal !== undefined) bar.setTotal(Math.max(newTotal, 1));
        bar.update(value);
      },
      increment: (by) => {
        value += by;
        bar.update(value);
      },
      finish: () => bar.update(bar.getTotal()),
      stop: () => {
        if (stopped) return;
        stopped = true;
        bar.stop();
      },
    };
  }

  stop(): void {
    this.bars?.stop();
  }
}
