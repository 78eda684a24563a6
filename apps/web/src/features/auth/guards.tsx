import { Navigate } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { LoadingScreen } from "../../shell/LoadingScreen.tsx";
import { useAppData } from "../../shell/useAppData.ts";

/** Logged-out screens (login, register): a signed-in user is bounced to the home page. */
export function LoggedOutOnly({ children }: { children: ReactNode }) {
  const { me, loading } = useAppData();
  if (loading) return <LoadingScreen />;
  if (me) return <Navigate to="/" replace />;
  return <>{children}</>;
}

/** Screens that need a login send anonymous visitors to the login page. */
export function RequireLogin({ children }: { children: ReactNode }) {
  const { me, loading } = useAppData();
  if (loading) return <LoadingScreen />;
  if (!me) return <Navigate to="/login" replace />;
  return <>{children}</>;
}
