import { Navigate, useRouter } from "@tanstack/react-router";
import { type ReactNode, useEffect, useState } from "react";
import { LoadingScreen } from "../../shell/LoadingScreen.tsx";
import { useAppData } from "../../shell/useAppData.ts";
import { loginHref } from "./login-reason.ts";

/** Logged-out screens (login, register): a signed-in user is bounced to the home page. */
export function LoggedOutOnly({ children }: { children: ReactNode }) {
  const { me, loading } = useAppData();
  if (loading) return <LoadingScreen />;
  if (me) return <Navigate to="/" replace />;
  return <>{children}</>;
}

/**
 * The login page's address for the page being shown, so it can say why and come back here. Taken
 * once, when the guard first renders: the guard stays mounted for a moment after it sent the
 * visitor on, and must not then send them on again from the login page's own address.
 */
export function useLoginHref(): string {
  const router = useRouter();
  const [href] = useState(() => loginHref(router.state.location.href));
  return href;
}

/** Screens that need a login send anonymous visitors to the login page, which says what for. */
export function RequireLogin({ children }: { children: ReactNode }) {
  const { me, loading } = useAppData();
  const href = useLoginHref();
  if (loading) return <LoadingScreen />;
  if (!me) return <ReplaceWith href={href} />;
  return <>{children}</>;
}

function ReplaceWith({ href }: { href: string }) {
  const router = useRouter();
  useEffect(() => router.history.replace(href), [router, href]);
  return null;
}
