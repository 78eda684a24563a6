import { afterEach, describe, expect, it, vi } from "vitest";
import { byteText, Progress } from "./progress.ts";

/** A stream that is not a terminal (a script, CI), keeping what is written. */
function pipe() {
  const lines: string[] = [];
  return { lines, stream: { isTTY: false, write: (text: string) => lines.push(text) > 0 } };
}

afterEach(() => vi.useRealTimers());

describe("upload progress in bytes", () => {
  it("says nothing of a quick upload", () => {
    vi.useFakeTimers();
    const { lines, stream } = pipe();
    const bar = new Progress(stream).bytes("upload notes.txt", 2048);
    bar.increment(1024);
    bar.increment(1024);
    bar.finish();
    expect(lines).toEqual([]);
  });

  it("shows bytes sent of the total while a long upload runs, and when it ends", () => {
    vi.useFakeTimers();
    const { lines, stream } = pipe();
    const total = 300 * 1024 * 1024;
    const bar = new Progress(stream).bytes("upload disk.img", total);
    bar.increment(50 * 1024 * 1024);
    vi.advanceTimersByTime(2500);
    bar.increment(100 * 1024 * 1024);
    vi.advanceTimersByTime(1000);
    bar.increment(1024);
    vi.advanceTimersByTime(1500);
    bar.increment(1024);
    bar.finish();
    expect(lines).toEqual(["upload disk.img: 150.0 MB / 300.0 MB\n", "upload disk.img: 150.0 MB / 300.0 MB\n", "upload disk.img: 300.0 MB / 300.0 MB\n"]);
  });

  it("writes sizes for people", () => {
    expect([byteText(0), byteText(1023), byteText(1536), byteText(3 * 1024 ** 3)]).toEqual(["0 bytes", "1023 bytes", "1.5 KB", "3.0 GB"]);
  });
});
