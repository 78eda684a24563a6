/**
 * The cookie that binds a single sign-on round trip to the browser that started it. Its path is
 * the whole site: the handoff code is redeemed over tRPC, and only with this cookie.
 */
export const OIDC_COOKIE = "flagship_oidc";

/** One cookie's value from a Cookie header; null when absent or empty. */
export function readCookie(header: string | undefined, name: string): string | null {
  for (const part of (header ?? "").split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim() || null;
  }
  return null;
}
