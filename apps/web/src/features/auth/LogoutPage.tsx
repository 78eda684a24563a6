import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { Navigate } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { session } from "../../lib/session.ts";
import { LoadingScreen } from "../../shell/LoadingScreen.tsx";
import { useAppData } from "../../shell/useAppData.ts";
import { useEndImpersonation } from "./impersonation.tsx";
import { useSwitchSession } from "./useSession.ts";

/**
 * /logout: ends the session and goes home. Logging out of an impersonated session ends the
 * impersonation instead and restores the staff session.
 */
export function LogoutPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { me, loading } = useAppData();
  const switchSession = useSwitchSession();
  const endImpersonation = useEndImpersonation();
  const logout = useMutation(trpc.auth.logout.mutationOptions());
  const [done, setDone] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    if (loading || started.current) return;
    started.current = true;
    if (!session.token) return setDone(true);
    if (me?.impersonating) {
      void endImpersonation().finally(() => setDone(true));
      return;
    }
    // Whatever the server says, this browser forgets the token.
    logout.mutate(undefined, {
      onSettled: () => {
        switchSession(null);
        notifications.show({ message: t("account.logged_out"), color: "gray", autoClose: 2000 });
        setDone(true);
      },
    });
  }, [loading, me, logout, switchSession, endImpersonation, t]);

  return done ? <Navigate to="/" replace /> : <LoadingScreen />;
}
