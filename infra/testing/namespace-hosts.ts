import { type ChildProcess, execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readdirSync, readFileSync, readlinkSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import Docker from "dockerode";

/**
 * Docker hosts on this machine for tests of the worker tier across hosts: each is a network
 * namespace of its own with its own dockerd (data root, exec root, pidfile, socket, cgroup parent,
 * its own docker0 inside the namespace) and one address on a bridge that joins the namespaces to
 * each other and to this machine. Nothing routes out of the bridge: traffic stays between the
 * namespaces made here and this machine.
 *
 * The engines are started with `nsenter --net`, not `ip netns exec`: the latter remounts /sys for
 * the namespace, which hides the cgroup hierarchy from dockerd ("Devices cgroup isn't mounted").
 * When this machine's own dockerd has set the FORWARD policy to DROP, bridged traffic between the
 * namespaces (Swarm's control plane) is dropped too, so an ACCEPT rule for the bridge is added.
 */

export interface NamespaceHost {
  /** The namespace's name, also the cgroup parent of its containers. */
  name: string;
  /** The host's address on the bridge, inside its namespace. */
  address: string;
  netns: string;
  dir: string;
  socket: string;
  /** DOCKER_HOST for this engine. */
  dockerHost: string;
  docker: Docker;
}

export interface NamespaceHosts {
  hosts: NamespaceHost[];
  /** This machine's address on the bridge. */
  gateway: string;
  /** Starts (again) the host's dockerd, on the data it had; resolves once the engine answers. */
  start(host: NamespaceHost): Promise<void>;
  /** The host is lost: dockerd, containerd, the shims and every container are killed at once (SIGKILL). */
  kill(host: NamespaceHost): Promise<void>;
  /** Removes everything made here: processes, mounts, cgroups, namespaces, the bridge, the rule, the files. */
  cleanup(): Promise<void>;
}

const TAG_PREFIX = "fsmh";

/** Names for one run: network interfaces allow 15 characters. */
function namesFor(pid: number) {
  const tag = `${TAG_PREFIX}${pid}`;
  return {
    tag,
    bridge: `${tag}br`,
    dir: path.join(os.tmpdir(), `flagship-multihost-${pid}`),
    host: (i: number) => `${tag}h${i}`,
    veth: (i: number) => `${tag}v${i}`,
    peer: (i: number) => `${tag}p${i}`,
  };
}

function run(cmd: string, args: string[]): string {
  return execFileSync(cmd, args, { stdio: ["ignore", "pipe", "pipe"] }).toString();
}

/** A /24 in 10.230.0.0/15–10.239 that no address or route of this machine touches. */
function freeSubnet(): string {
  const taken = run("ip", ["-4", "-o", "addr"]) + run("ip", ["-4", "route"]);
  for (let attempt = 0; attempt < 200; attempt++) {
    const prefix = `10.${230 + Math.floor(Math.random() * 10)}.${Math.floor(Math.random() * 256)}`;
    if (!taken.includes(`${prefix}.`)) return prefix;
  }
  throw new Error("no free 10.23x.y.0/24 for the test hosts' bridge");
}

/** Processes of a host: everything in its network namespace, and its containers (by cgroup). */
function processesOf(netns: string, cgroup: string): number[] {
  let inode: number;
  try {
    inode = statSync(netns).ino;
  } catch {
    return [];
  }
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      if (readlinkSync(`/proc/${entry}/ns/net`) === `net:[${inode}]` || readFileSync(`/proc/${entry}/cgroup`, "utf8").includes(`/${cgroup}/`)) {
        pids.push(Number(entry));
      }
    } catch {
      // The process ended meanwhile.
    }
  }
  return pids;
}

async function killAll(netns: string, cgroup: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const pids = processesOf(netns, cgroup);
    if (pids.length === 0) return;
    for (const pid of pids) {
      try {
        process.kill(pid, "SIGKILL");
      } catch {
        // Gone already.
      }
    }
    if (Date.now() > deadline) throw new Error(`processes of ${netns} survive SIGKILL: ${pids.join(", ")}`);
    await sleep(100);
  }
}

/** Unmounts what the engine left mounted under `dir` (a killed engine leaves its containers' mounts), deepest first. */
function unmountUnder(dir: string): void {
  const mounts = readFileSync("/proc/self/mountinfo", "utf8")
    .split("\n")
    .map((line) => line.split(" ")[4]?.replace(/\\(\d{3})/g, (_, octal: string) => String.fromCharCode(parseInt(octal, 8))) ?? "")
    .filter((mountPoint) => mountPoint.startsWith(`${dir}/`))
    .sort((a, b) => b.length - a.length);
  for (const mountPoint of mounts) spawnSync("umount", ["-l", mountPoint], { stdio: "ignore" });
}

/**
 * What a killed engine leaves outside its data: mounts and state under its exec root, and the
 * sockets of its containers' shims, which containerd keeps in /run/containerd/s under a hash of
 * its own address, the namespace ("moby") and the container's id.
 */
function clearRuntimeState(dir: string): void {
  const exec = path.join(dir, "exec");
  const address = path.join(exec, "containerd", "containerd.sock");
  let ids: string[] = [];
  try {
    ids = readdirSync(path.join(dir, "data", "containers"));
  } catch {
    // No container was ever made.
  }
  for (const id of ids) {
    const socket = path.join("/run/containerd/s", createHash("sha256").update(path.join(address, "moby", id)).digest("hex"));
    rmSync(socket, { force: true });
  }
  unmountUnder(exec);
  rmSync(exec, { recursive: true, force: true });
}

/** Removes the cgroups the host's containers ran in (cgroup v1: one tree per controller; v2: one tree). */
function removeCgroups(cgroup: string): void {
  const roots = existsSync("/sys/fs/cgroup/cgroup.controllers") ? ["/sys/fs/cgroup"] : readdirSync("/sys/fs/cgroup").map((c) => path.join("/sys/fs/cgroup", c));
  const removeTree = (dir: string) => {
    let children: string[] = [];
    try {
      children = readdirSync(dir, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => path.join(dir, d.name));
    } catch {
      return;
    }
    for (const child of children) removeTree(child);
    try {
      rmdirSync(dir);
    } catch {
      // Still in use or gone: nothing more to do here.
    }
  };
  for (const root of roots) removeTree(path.join(root, cgroup));
}

/**
 * Makes `count` hosts (root only). Whatever was made is removed again when a step fails. Hosts
 * left by an earlier run that died before its clean-up (its process gone) are removed first.
 */
export async function createNamespaceHosts(count: number, pid = process.pid): Promise<NamespaceHosts> {
  await sweepStale();
  const names = namesFor(pid);
  const subnet = freeSubnet();
  const gateway = `${subnet}.1`;
  const engines = new Map<NamespaceHost, ChildProcess>();
  const hosts: NamespaceHost[] = [];

  const start = async (host: NamespaceHost) => {
    // A host that comes back from a loss has lost its runtime state, as after a reboot (the exec
    // root is a tmpfs on a real host): what the killed engine left there is removed first.
    clearRuntimeState(host.dir);
    const log = openSync(path.join(host.dir, "dockerd.log"), "a");
    // An empty configuration of its own: this machine's /etc/docker/daemon.json is the other engine's.
    const child = spawn(
      "nsenter",
      [
        `--net=${host.netns}`,
        "dockerd",
        "--config-file", path.join(host.dir, "daemon.json"),
        "--data-root", path.join(host.dir, "data"),
        "--exec-root", path.join(host.dir, "exec"),
        "--pidfile", path.join(host.dir, "docker.pid"),
        "-H", host.dockerHost,
        "--cgroup-parent", `/${host.name}`,
        "--log-level", "warn",
      ],
      { stdio: ["ignore", log, log] },
    );
    closeSync(log);
    engines.set(host, child);
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`dockerd of ${host.name} exited (${child.exitCode}); see ${host.dir}/dockerd.log`);
      if (await host.docker.ping().then(() => true, () => false)) return;
      if (Date.now() > deadline) throw new Error(`dockerd of ${host.name} did not answer within 60 s; see ${host.dir}/dockerd.log`);
      await sleep(200);
    }
  };

  const kill = async (host: NamespaceHost) => {
    await killAll(host.netns, host.name);
    const child = engines.get(host);
    if (child && child.exitCode === null && child.signalCode === null) await new Promise((resolve) => child.once("exit", resolve));
    engines.delete(host);
  };

  const cleanup = async () => {
    for (const host of hosts) {
      const child = engines.get(host);
      // A clean stop first, so dockerd unmounts and removes what it made; then whatever is left is killed.
      if (child && child.exitCode === null) {
        child.kill("SIGTERM");
        await Promise.race([new Promise((resolve) => child.once("exit", resolve)), sleep(15_000)]);
      }
    }
    await removeAll(names, hosts.length);
  };

  try {
    mkdirSync(names.dir, { recursive: true });
    run("ip", ["link", "add", names.bridge, "type", "bridge"]);
    run("ip", ["addr", "add", `${gateway}/24`, "dev", names.bridge]);
    run("ip", ["link", "set", names.bridge, "up"]);
    run("iptables", ["-I", "FORWARD", "-i", names.bridge, "-o", names.bridge, "-j", "ACCEPT"]);
    for (let i = 1; i <= count; i++) {
      const name = names.host(i);
      const dir = path.join(names.dir, name);
      mkdirSync(dir, { recursive: true });
      writeFileSync(path.join(dir, "daemon.json"), "{}\n");
      const address = `${subnet}.${10 + i}`;
      run("ip", ["netns", "add", name]);
      run("ip", ["link", "add", names.veth(i), "type", "veth", "peer", "name", names.peer(i)]);
      run("ip", ["link", "set", names.peer(i), "netns", name]);
      run("ip", ["link", "set", names.veth(i), "master", names.bridge, "up"]);
      run("ip", ["-n", name, "addr", "add", `${address}/24`, "dev", names.peer(i)]);
      run("ip", ["-n", name, "link", "set", names.peer(i), "up"]);
      run("ip", ["-n", name, "link", "set", "lo", "up"]);
      const socket = path.join(dir, "docker.sock");
      hosts.push({ name, address, netns: `/var/run/netns/${name}`, dir, socket, dockerHost: `unix://${socket}`, docker: new Docker({ socketPath: socket }) });
    }
    await Promise.all(hosts.map((host) => start(host)));
  } catch (error) {
    await cleanup().catch(() => undefined);
    throw error;
  }
  return { hosts, gateway, start, kill, cleanup };
}

/** Removes a run's hosts whatever state they are in; every step is tried, the first failure is thrown at the end. */
async function removeAll(names: ReturnType<typeof namesFor>, count: number): Promise<void> {
  const failures: unknown[] = [];
  const attempt = async (step: () => unknown) => {
    try {
      await step();
    } catch (error) {
      failures.push(error);
    }
  };
  for (let i = 1; i <= count; i++) {
    const name = names.host(i);
    const netns = `/var/run/netns/${name}`;
    await attempt(() => killAll(netns, name));
    await attempt(() => clearRuntimeState(path.join(names.dir, name)));
    await attempt(() => unmountUnder(path.join(names.dir, name)));
    await attempt(() => removeCgroups(name));
    if (existsSync(netns)) await attempt(() => run("ip", ["netns", "del", name]));
  }
  if (spawnSync("ip", ["link", "show", names.bridge], { stdio: "ignore" }).status === 0) await attempt(() => run("ip", ["link", "del", names.bridge]));
  while (spawnSync("iptables", ["-C", "FORWARD", "-i", names.bridge, "-o", names.bridge, "-j", "ACCEPT"], { stdio: "ignore" }).status === 0) {
    const removed = spawnSync("iptables", ["-D", "FORWARD", "-i", names.bridge, "-o", names.bridge, "-j", "ACCEPT"], { stdio: "ignore" });
    if (removed.status !== 0) break;
  }
  await attempt(() => rmSync(names.dir, { recursive: true, force: true }));
  if (failures.length > 0) throw failures[0];
}

/** Hosts of earlier runs whose process is gone (killed before its clean-up ran). */
async function sweepStale(): Promise<void> {
  const listed = spawnSync("ip", ["netns", "list"]).stdout?.toString() ?? "";
  // The run's pid and its hosts' highest number.
  const runs = new Map<number, number>();
  for (const line of listed.split("\n")) {
    const match = new RegExp(`^${TAG_PREFIX}(\\d+)h(\\d+)\\b`).exec(line.trim());
    if (match) runs.set(Number(match[1]), Math.max(runs.get(Number(match[1])) ?? 0, Number(match[2])));
  }
  for (const [pid, count] of runs) {
    if (!isAlive(pid)) await removeAll(namesFor(pid), count).catch(() => undefined);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
