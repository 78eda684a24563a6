import { execFileSync, spawnSync } from "node:child_process";
import net from "node:net";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync, copyFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";

export const BANNER_IMAGE = "flagship-test/banner:2";
export const BANNER_PORT = 8000;
const BUSYBOX = ["/bin/busybox", "/usr/bin/busybox"].find((p) => existsSync(p));

/**
 * A challenge image for tests and benchmarks, built locally and never pulled: a rootfs holding
 * only Debian's static busybox, imported with `docker import`. The container serves a banner
 * naming itself (and $FLAG, when set) on port 8000 to every connection.
 */
export function buildBannerImage(tag = BANNER_IMAGE, options: { dockerHost?: string } = {}): string {
  // Another engine than the default one (a test's own dockerd) is named to the CLI.
  const engine = options.dockerHost ? ["-H", options.dockerHost] : [];
  const present = spawnSync("docker", [...engine, "image", "inspect", tag], { stdio: "ignore" });
  if (present.status === 0) return tag;
  if (!BUSYBOX) throw new Error("busybox-static is needed to build the test image (Debian: apt-get install busybox-static)");
  const root = mkdtempSync(path.join(os.tmpdir(), "flagship-banner-"));
  try {
    mkdirSync(path.join(root, "bin"));
    mkdirSync(path.join(root, "tmp"));
    copyFileSync(BUSYBOX, path.join(root, "bin/busybox"));
    for (const applet of ["sh", "nc", "echo", "hostname", "cat", "sleep"]) symlinkSync("busybox", path.join(root, "bin", applet));
    writeFileSync(path.join(root, "bin/banner"), '#!/bin/sh\necho "flagship-banner $(hostname)${FLAG:+ $FLAG}"\n');
    chmodSync(path.join(root, "bin/banner"), 0o755);
    const tar = execFileSync("tar", ["-C", root, "-c", "."], { maxBuffer: 64 * 1024 * 1024 });
    execFileSync("docker", [...engine, "import", "--change", `CMD ["/bin/nc","-ll","-p","${BANNER_PORT}","-e","/bin/banner"]`, "-", tag], { input: tar, stdio: ["pipe", "ignore", "inherit"] });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  return tag;
}

/** Reads the banner a test instance sends on connect. */
export function readBanner(ip: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: ip, port });
    let text = "";
    socket.setTimeout(5000, () => socket.destroy(new Error("no banner")));
    socket.on("data", (chunk) => {
      text += chunk.toString();
      if (text.includes("\n")) {
        socket.destroy();
        resolve(text.trim());
      }
    });
    socket.on("error", reject);
    // Closed before a whole line came (the engine's port proxy takes a connection before the
    // container listens, then drops it): no banner.
    socket.on("close", () => reject(new Error(text ? `the banner ended early: ${text}` : "the connection closed without a banner")));
  });
}
