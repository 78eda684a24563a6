import { useRouter, useRouterState } from "@tanstack/react-router";
import { useEffect } from "react";
import { LoadingScreen } from "../../shell/LoadingScreen.tsx";

/**
 * /uri?:target goes to the target after the colon. Only paths of this site are followed
 * (a leading single slash), so the page cannot be used to send people elsewhere.
 */
export function UriPage() {
  const router = useRouter();
  const searchStr = useRouterState({ select: (s) => s.location.searchStr });
  useEffect(() => {
    // The router may re-serialise the query ("?:/x" becomes "?%3A%2Fx="): undo both.
    let raw = (window.location.search || searchStr).replace(/^\?/, "").replace(/=$/, "");
    try {
      raw = decodeURIComponent(raw);
    } catch {
      // A malformed escape: use the text as it is.
    }
    const colon = raw.indexOf(":");
    const target = colon === -1 ? "" : raw.slice(colon + 1);
    const safe = target.startsWith("/") && !target.startsWith("//") && !target.startsWith("/\\") ? target : "/";
    router.history.replace(safe);
  }, [router, searchStr]);
  return <LoadingScreen />;
}
