import { notifications } from "@mantine/notifications";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { session } from "../../lib/session.ts";
import { errorCode, useTRPC } from "../../lib/trpc.ts";
import { useSwitchSession } from "./useSession.ts";

/**
 * Watches every call: a permission_denied reply refreshes the session (the user's rights may have
 * changed), a token the server no longer knows ends the session, and failing to load the own
 * profile with a server reply logs the user out with the spec's message.
 */
export function SessionWatcher() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const switchSession = useSwitchSession();

  useEffect(() => {
    const meKey = trpc.auth.me.queryKey();
    const onError = (error: unknown, queryKey?: readonly unknown[]) => {
      const code = errorCode(error);
      if (!code || !session.token) return;
      if (code === "authentication_failed") {
        switchSession(null);
        notifications.show({ message: t("account.session_expired"), color: "yellow" });
      } else if (queryKey && JSON.stringify(queryKey) === JSON.stringify(meKey) && code !== "throttled") {
        switchSession(null);
        notifications.show({ message: `${t("generic.logged_out_error")} (${code})`, color: "red", autoClose: false });
      } else if (code === "permission_denied") {
        void queryClient.invalidateQueries({ queryKey: meKey });
      }
    };
    const unsubQueries = queryClient.getQueryCache().subscribe((event) => {
      if (event.type === "updated" && event.action.type === "error") onError(event.action.error, event.query.queryKey);
    });
    const unsubMutations = queryClient.getMutationCache().subscribe((event) => {
      if (event.type === "updated" && event.action.type === "error") onError(event.action.error);
    });
    return () => {
      unsubQueries();
      unsubMutations();
    };
  }, [queryClient, switchSession, t, trpc]);

  return null;
}
