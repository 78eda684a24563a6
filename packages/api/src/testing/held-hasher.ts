import { DEFAULT_HASHING, type Hasher } from "../auth/passwords.ts";

export interface HeldHasher extends Hasher {
  /** Hashes started and not yet let finish. */
  running(): number;
  /** Lets every started hash finish. */
  finishAll(): void;
}

/**
 * A hasher whose hashes run until the test lets them finish (then do the inner hasher's work,
 * argon2 by default): a hashing pool full of slow hashes on demand, with no timing involved.
 */
export function heldHasher(inner: Hasher = DEFAULT_HASHING.hasher): HeldHasher {
  const held: Array<() => void> = [];
  const hold = () => new Promise<void>((resolve) => held.push(resolve));
  return {
    async hash(password) {
      await hold();
      return inner.hash(password);
    },
    async verify(hash, password) {
      await hold();
      return inner.verify(hash, password);
    },
    running: () => held.length,
    finishAll: () => held.splice(0).forEach((finish) => finish()),
  };
}
