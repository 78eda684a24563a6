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

  constructor(private readonly stream: Pick<NodeJS.WriteStream, "isTTY" | "write"> = process.stderr) {
    this.bars = stream.isTTY
      ? new cliProgress.MultiBar({ hideCursor: true, clearOnComplete: false, stopOnComplete: false, stream: stream as NodeJS.WriteStream }, cliProgress.Presets.shades_classic)
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

  /**
   * Progress of a transfer in bytes (sent / total). On a terminal, a bar; elsewhere (a script,
   * CI), a line at most every `every` ms once the transfer has taken longer than that, and one at
   * the end of such a transfer, so a long upload is seen moving while a quick one prints nothing.
   */
  bytes(label: string, total: number, every = 2000): Bar {
    const shown = label.replace(/[{}]/g, "");
    if (this.bars) {
      const bar = this.bars.create(Math.max(total, 1), 0, { sent: byteText(0), size: byteText(total) }, { format: ` ${shown} [{bar}] {percentage}% | {sent} / {size}` });
      let value = 0;
      let stopped = false;
      const show = () => bar.update(value, { sent: byteText(value), size: byteText(total) });
      return {
        update: (next) => {
          value = next;
          show();
        },
        increment: (by) => {
          value += by;
          show();
        },
        finish: () => {
          value = total;
          show();
        },
        stop: () => {
          if (stopped) return;
          stopped = true;
          bar.stop();
        },
      };
    }
    const started = Date.now();
    let value = 0;
    let lastLine = started;
    let printed = false;
    let stopped = false;
    const line = () => {
      this.stream.write(`${shown}: ${byteText(value)} / ${byteText(total)}\n`);
      printed = true;
      lastLine = Date.now();
    };
    const moved = () => {
      if (Date.now() - lastLine >= every) line();
    };
    return {
      update: (next) => {
        value = next;
        moved();
      },
      increment: (by) => {
        value += by;
        moved();
      },
      finish: () => {
        value = total;
        if (printed && !stopped) line();
        stopped = true;
      },
      stop: () => {
        stopped = true;
      },
    };
  }

  stop(): void {
    this.bars?.stop();
  }
}

const UNITS = ["bytes", "KB", "MB", "GB", "TB"];

/** A byte count for people: 532 bytes, 12.5 MB, 3.0 GB (units of 1024). */
export function byteText(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return unit === 0 ? `${bytes} bytes` : `${value.toFixed(1)} ${UNITS[unit]}`;
}
