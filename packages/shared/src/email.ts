// Plain checks of an email address, kept apart from the schemas (and zod) so the web forms
// that use them do not load zod.

/** The specs' basic email shape: non-space, at sign, non-space, dot, non-space. */
export const EMAIL_PATTERN = /^\S+@\S+\.\S+$/;

export function isEmailShaped(email: string): boolean {
  return EMAIL_PATTERN.test(email);
}

/**
 * The event's email restrictions: `email_domain` (the part after the at sign, case-insensitive;
 * a comma-separated list allows several) and `email_regex` (must match the whole address).
 * An invalid regex stored by staff restricts nothing rather than locking everyone out.
 */
export function emailAllowed(email: string, rules: { email_domain: string; email_regex: string }): boolean {
  const domains = rules.email_domain
    .split(",")
    .map((d) => d.trim().replace(/^@/, "").toLowerCase())
    .filter(Boolean);
  if (domains.length > 0) {
    const domain = email.slice(email.lastIndexOf("@") + 1).toLowerCase();
    if (!domains.includes(domain)) return false;
  }
  if (rules.email_regex.trim() !== "") {
    let pattern: RegExp | null = null;
    try {
      pattern = new RegExp(`^(?:${rules.email_regex})$`);
    } catch {
      pattern = null;
    }
    if (pattern && !pattern.test(email)) return false;
  }
  return true;
}
