import { VisuallyHidden } from "@mantine/core";
import { useRouterState } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../lib/i18n.ts";

/**
 * After an in-app navigation, moves focus to the new page's heading (the main landmark's h1) and
 * announces the page in a polite live region, as a full page load would. The heading may arrive
 * after the route resolves (data and lazy chunks), so it is awaited; focus the visitor has already
 * put inside the page is never taken away.
 */
export function RouteFocus() {
  // The resolved location: the one whose page is on screen (not one still loading).
  const pathname = useRouterState({ select: (s) => s.resolvedLocation?.pathname });
  const { t } = useTranslation();
  const [message, setMessage] = useState("");
  const first = useRef(true);
  const last = useRef<{ heading: HTMLElement | null; text: string }>({ heading: null, text: "" });

  // Runs once the new location has rendered (an effect after commit).
  useEffect(() => {
    const main = document.getElementById("main") ?? document.querySelector("main");
    if (first.current || !main) {
      first.current = false;
      const heading = main?.querySelector<HTMLElement>("h1") ?? null;
      last.current = { heading, text: heading?.textContent ?? "" };
      return;
    }
    const tryFocus = (): boolean => {
      const heading = main.querySelector<HTMLElement>("h1");
      // The previous page's heading may linger until the new page has rendered.
      if (!heading || (heading === last.current.heading && heading.textContent === last.current.text)) return false;
      last.current = { heading, text: heading.textContent ?? "" };
      const active = document.activeElement;
      const settled = active && active !== document.body && active !== main && main.contains(active) && active !== heading;
      if (!settled) {
        if (!heading.hasAttribute("tabindex")) heading.setAttribute("tabindex", "-1");
        heading.focus();
      }
      setMessage(t("nav.navigated_to", { title: heading.textContent ?? "" }));
      return true;
    };
    if (tryFocus()) return;
    const observer = new MutationObserver(() => {
      if (tryFocus()) observer.disconnect();
    });
    observer.observe(main, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [pathname, t]);

  return (
    <VisuallyHidden role="status" aria-live="polite" aria-atomic="true" data-testid="route-announcer">
      {message}
    </VisuallyHidden>
  );
}
