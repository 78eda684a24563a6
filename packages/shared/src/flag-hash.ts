import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";

/**
 * What a hashed flag stores for `flag`: the lowercase hex SHA-256 of its UTF-8 bytes, the digest
 * the server compares a submission's against. The editor computes it so staff type the flag, not
 * its hash.
 */
export function hashFlag(flag: string): string {
  return bytesToHex(sha256(utf8ToBytes(flag)));
}
