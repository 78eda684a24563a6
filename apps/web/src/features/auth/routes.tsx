import { createRoute, Navigate } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { rootRoute } from "../../router.tsx";
import { LoadingScreen } from "../../shell/LoadingScreen.tsx";
import { useAppData } from "../../shell/useAppData.ts";
import { LoggedOutOnly, RequireLogin } from "./guards.tsx";
import { LoginScreen } from "../../plugins/screens.tsx";
import "./texts.ts";
import { deferred } from "../../lib/deferred.tsx";

const LogoutPage = deferred("features/auth/LogoutPage", () => import("./LogoutPage.tsx").then((m) => m.LogoutPage));
const PasswordResetPage = deferred("features/auth/PasswordResetPage", () => import("./PasswordResetPage.tsx").then((m) => m.PasswordResetPage));
const RegisterEmailPage = deferred("features/auth/RegisterEmailPage", () => import("./RegisterEmailPage.tsx").then((m) => m.RegisterEmailPage));
const RegisterPage = deferred("features/auth/RegisterPage", () => import("./RegisterPage.tsx").then((m) => m.RegisterPage));
const SettingsPage = deferred("features/auth/settings/SettingsPage", () => import("./settings/SettingsPage.tsx").then((m) => m.SettingsPage));
const TwoFactorPage = deferred("features/auth/TwoFactorPage", () => import("./TwoFactorPage.tsx").then((m) => m.TwoFactorPage));
const UriPage = deferred("features/auth/UriPage", () => import("./UriPage.tsx").then((m) => m.UriPage));
const VerifyPage = deferred("features/auth/VerifyPage", () => import("./VerifyPage.tsx").then((m) => m.VerifyPage));
const WelcomePage = deferred("features/auth/WelcomePage", () => import("./WelcomePage.tsx").then((m) => m.WelcomePage));

export function StaffOnly({ children }: { children: ReactNode }) {
  const { me, loading } = useAppData();
  if (loading) return <LoadingScreen />;
  if (!me?.isStaff) return <Navigate to="/" replace />;
  return <>{children}</>;
}

export const authRoutes = [
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/login",
    component: () => (
      <LoggedOutOnly>
        <LoginScreen />
      </LoggedOutOnly>
    ),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/register",
    component: () => (
      <LoggedOutOnly>
        <RegisterPage />
      </LoggedOutOnly>
    ),
  }),
  createRoute({ getParentRoute: () => rootRoute, path: "/register/email", component: RegisterEmailPage }),
  createRoute({ getParentRoute: () => rootRoute, path: "/verify", component: VerifyPage }),
  createRoute({ getParentRoute: () => rootRoute, path: "/password_reset", component: PasswordResetPage }),
  createRoute({ getParentRoute: () => rootRoute, path: "/logout", component: LogoutPage }),
  createRoute({ getParentRoute: () => rootRoute, path: "/uri", component: UriPage }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/welcome",
    component: () => (
      <RequireLogin>
        <WelcomePage />
      </RequireLogin>
    ),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/settings",
    component: () => (
      <RequireLogin>
        <SettingsPage />
      </RequireLogin>
    ),
  }),
  createRoute({
    getParentRoute: () => rootRoute,
    path: "/settings/2fa",
    component: () => (
      <RequireLogin>
        <TwoFactorPage />
      </RequireLogin>
    ),
  }),
] as const;
