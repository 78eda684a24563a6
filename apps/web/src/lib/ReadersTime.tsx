import type { ReactNode } from "react";
import { useHydrated } from "./render-clock.ts";

/**
 * What depends on the reader's time zone (a date, a time): drawn once the page is the browser's own,
 * as the server knows no zone. Only this part is drawn again then, not the page around it.
 */
export function ReadersTime({ children }: { children: () => ReactNode }) {
  return useHydrated() ? <>{children()}</> : null;
}
