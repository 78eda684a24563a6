import { Navigate, useRouter } from "@tanstack/react-router";
import { type ReactNode, useEffect } from "react";
import { LoadingScreen } from "../../shell/LoadingScreen.tsx";
import { useAppData } from "../../shell/useAppData.ts";
import { useLoginHref } from "../auth/guards.tsx";

/** Team screens exist only with teams on; otherwise they send the player home. */
export function TeamsOnly({ children }: { children: ReactNode }) {
  const { config, loading } = useAppData();
  if (loading && !config) return <LoadingScreen />;
  if (config?.enable_teams === false) return <Navigate to="/" replace />;
  return <>{children}</>;
}

/** Screens that need a login send anonymous visitors to the login page, which says what for. */
export function LoginOnly({ children }: { children: ReactNode }) {
  const { me, loading } = useAppData();
  const login = useLoginHref();
  if (loading) return <LoadingScreen />;
  if (!me) return <RedirectTo path={login} />;
  return <>{children}</>;
}

/**
 * Replaces the current entry with another path. Takes a plain path because some targets
 * (login, welcome, campaign) are routes other features register.
 */
export function RedirectTo({ path }: { path: string }) {
  const router = useRouter();
  useEffect(() => {
    router.history.replace(path);
  }, [router, path]);
  return null;
}
