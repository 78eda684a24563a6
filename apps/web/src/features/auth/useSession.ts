import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { session } from "../../lib/session.ts";

/**
 * Switches the session to a token (or clears it) and drops every cached answer, so nothing the
 * previous identity could see stays on screen.
 */
export function useSwitchSession() {
  const queryClient = useQueryClient();
  return useCallback(
    (token: string | null) => {
      queryClient.cancelQueries();
      session.setToken(token);
      queryClient.removeQueries();
    },
    [queryClient],
  );
}
