import { parseProfileParam, type ProfileRef } from "@flagship/shared";
import { addTexts } from "../../lib/i18n.ts";

addTexts({
  login_reason: {
    profile: "Log in to see {{name}}'s profile.",
    profile_unnamed: "Log in to see this player's profile.",
    own_profile: "Log in to see your profile.",
    team: "Log in to see the team {{name}}.",
    team_unnamed: "Log in to see this team.",
    own_team: "Log in to see your team.",
    page: "Log in to see this page.",
  },
});

/**
 * Where a visitor sent to log in was going, as a path on this site: anything else (another
 * origin, "//host", a backslash some browsers read as a slash) is dropped, so the login page never
 * sends anyone off the site.
 */
export function safeNext(value: unknown): string | null {
  if (typeof value !== "string" || !value.startsWith("/") || value.startsWith("//") || value.includes("\\")) return null;
  if (value === "/login" || value.startsWith("/login?") || value.startsWith("/login/")) return null;
  return value;
}

/** The login page's address for a visitor sent there from `path`, which it returns to afterwards. */
export function loginHref(path: string): string {
  const next = safeNext(path);
  return next === null || next === "/" ? "/login" : `/login?next=${encodeURIComponent(next)}`;
}

export type LoginReason = { kind: "profile" | "team"; ref: ProfileRef } | { kind: "page" };

/** Why the login page was shown: to see a member's profile, a team, or some other page. */
export function loginReason(next: string): LoginReason {
  const match = /^\/(profile|team)\/([^/?#]+)\/?(?:[?#].*)?$/.exec(next);
  if (match) {
    let segment: string;
    try {
      segment = decodeURIComponent(match[2]!);
    } catch {
      return { kind: "page" };
    }
    const ref = parseProfileParam(segment);
    if (ref !== null && !(match[1] === "team" && (segment === "join" || segment === "create"))) return { kind: match[1] as "profile" | "team", ref };
  }
  return { kind: "page" };
}
