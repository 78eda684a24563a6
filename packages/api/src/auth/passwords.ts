import { AppError, type ErrorCode } from "@flagship/shared";
import { passwordStrength } from "@flagship/shared/password";
import argon2 from "argon2";

/** argon2id with the library's defaults (19 MiB, t=2), the OWASP baseline. */
export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

// A real hash to verify against when the account does not exist, so a miss takes as long as a
// wrong password and response times do not reveal which usernames exist.
let decoy: Promise<string> | undefined;

export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (hash === null) {
    decoy ??= hashPassword("flagship decoy password");
    await argon2.verify(await decoy, password).catch(() => false);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    // Not a hash at all (e.g. a deleted account's placeholder): nothing matches it.
    return false;
  }
}

/** zxcvbn score >= 3, the same rule as the client's bar; the checker's advice is the field message. */
export function assertStrongPassword(password: string, userInputs: string[], field = "password"): void {
  const strength = passwordStrength(password, userInputs);
  if (!strength.strong) throw weakPassword(strength.feedback, field);
}

function weakPassword(feedback: string, field: string): AppError {
  const code: ErrorCode = "weak_password";
  const message = feedback ? `Password too weak: ${feedback}` : "Password too weak";
  return new AppError(code, { message, details: { [field]: [message] } });
}
