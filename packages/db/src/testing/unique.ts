import { randomBytes } from "node:crypto";

let counter = 0;

/** A name no other test will pick: a prefix, a per-process counter and random bytes. */
export function uniqueName(prefix = "t"): string {
  counter += 1;
  return `${prefix}${counter}${randomBytes(3).toString("hex")}`;
}
