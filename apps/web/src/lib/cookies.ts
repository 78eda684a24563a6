/**
 * The cookies the web app keeps beside local storage for the pages the server draws (the session,
 * the colour scheme, the closed announcement bars): site-wide, SameSite=Lax, Secure over https.
 */
export function readCookie(name: string): string | null {
  for (const part of document.cookie.split(";")) {
    const at = part.indexOf("=");
    if (at > 0 && part.slice(0, at).trim() === name) return decodeURIComponent(part.slice(at + 1).trim()) || null;
  }
  return null;
}

/** Sets the cookie for `maxAgeSeconds`, or removes it (null or an empty value). */
export function writeCookie(name: string, value: string | null, maxAgeSeconds: number): void {
  const secure = window.location.protocol === "https:" ? "; Secure" : "";
  document.cookie = value ? `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Lax${secure}` : `${name}=; Path=/; Max-Age=0; SameSite=Lax${secure}`;
}
