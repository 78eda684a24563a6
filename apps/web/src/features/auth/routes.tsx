import { createRoute, Navigate } from "@tanstack/react-router";
import type { ReactNode } from "react";
import { rootRoute } from "../../router.tsx";
import { LoadingScreen } from "../../shell/LoadingScreen.tsx";
import { useAppData } from "../../shell/useAppData.ts";
import { LoggedOutOnly, RequireLogin } from "./guards.tsx";
import { LoginScreen } from "../../plugins/screens.tsx";
import { LogoutPage } from "./LogoutPage.tsx";
import { PasswordResetPage } from "./PasswordResetPage.tsx";
import { RegisterEmailPage } from "./RegisterEmailPage.tsx";
import { RegisterPage } from "./RegisterPage.tsx";
import { SettingsPage } from "./settings/SettingsPage.tsx";
import "./texts.ts";
import { TwoFactorPage } from "./TwoFactorPage.tsx";
import { UriPage } from "./UriPage.tsx";
import { VerifyPage } from "./VerifyPage.tsx";
import { WelcomePage } from "./WelcomePage.tsx";

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
