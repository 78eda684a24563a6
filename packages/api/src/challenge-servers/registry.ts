import { lookup } from "node:dns/promises";
import net from "node:net";
import { AppError } from "@flagship/shared";

/**
 * Addresses a registry may not have unless the operator lists it: the engine would otherwise be
 * made to send requests to the hosts' own services (Redis on 127.0.0.1:6379, a cloud's metadata
 * service on 169.254.169.254, the internal network).
 */
const INTERNAL = new net.BlockList();
for (const [address, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["224.0.0.0", 3],
] as const) {
  INTERNAL.addSubnet(address, prefix, "ipv4");
}
for (const [address, prefix] of [
  ["::", 128],
  ["::1", 128],
  ["fc00::", 7],
  ["fe80::", 10],
  ["ff00::", 8],
] as const) {
  INTERNAL.addSubnet(address, prefix, "ipv6");
}

const LOOKUP_TIMEOUT_MS = 2000;

function internal(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return INTERNAL.check(mapped, "ipv4");
  return INTERNAL.check(address, net.isIPv6(address) ? "ipv6" : "ipv4");
}

/** The registry an image reference names (`host[:port]`), or null for a local or Docker Hub name. */
export function registryOf(image: string): string | null {
  const slash = image.indexOf("/");
  if (slash < 0) return null;
  const first = image.slice(0, slash);
  return /[.:]/.test(first) || first === "localhost" ? first.toLowerCase() : null;
}

/** Whether a registry host resolves to (or is) an internal address. A name that does not resolve is not refused here: the engine cannot reach it either. */
async function isInternalHost(host: string): Promise<boolean> {
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  if (net.isIP(host)) return internal(host);
  let timer: NodeJS.Timeout | undefined;
  const addresses = await Promise.race([
    lookup(host, { all: true }).catch(() => []),
    new Promise<[]>((resolve) => {
      timer = setTimeout(() => resolve([]), LOOKUP_TIMEOUT_MS);
    }),
  ]).finally(() => clearTimeout(timer));
  return addresses.some((a) => internal(a.address));
}

/**
 * An image may name a registry only if the operator allows it: with CHALLENGE_REGISTRIES set,
 * only those listed; without it, any registry on a public address. A registry on a loopback,
 * link-local or private address is refused unless listed. Images naming no registry are the
 * engine's local images (or Docker Hub's). Throws 400 `invalid` on `job_spec.image`.
 */
export async function checkImageRegistry(image: string, allowed: readonly string[] | undefined): Promise<void> {
  const registry = registryOf(image);
  if (registry === null) return;
  const listed = (allowed ?? []).map((r) => r.toLowerCase());
  if (listed.includes(registry)) return;
  if (listed.length > 0) {
    throw AppError.field("invalid", "job_spec.image", `Images may come only from the registries the organisers allow (${listed.join(", ")}), or be on the engines already.`);
  }
  const host = registry.replace(/:\d+$/, "");
  if (await isInternalHost(host)) {
    throw AppError.field("invalid", "job_spec.image", `${registry} is on an internal address: images may come from it only if the organisers list it in CHALLENGE_REGISTRIES.`);
  }
}
