import { TIMINGS } from "@flagship/shared";
import { notifications } from "@mantine/notifications";
import { useAppData } from "../shell/useAppData.ts";
import { LoadingScreen } from "../shell/LoadingScreen.tsx";
import { MissingRenderer } from "../shell/MissingRenderer.tsx";
import { loginProviders, pages, type PopupProps, popups } from "./extensions.tsx";

/** Shows a registered popup type as a notification that dismisses itself; unknown types fall back to the base popup. */
export function showPopup(type: string, props: PopupProps): void {
  const Popup = popups.get(type) ?? popups.get("base");
  if (!Popup) return;
  notifications.show({ message: <Popup {...props} />, autoClose: TIMINGS.popupDismissMs });
}

/** /login: the screen of the configured login provider. */
export function LoginScreen() {
  const { config, loading } = useAppData();
  if (loading && !config) return <LoadingScreen />;
  const name = config?.login_provider ?? "basic_auth";
  const Provider = loginProviders.get(name);
  return Provider ? <Provider /> : <MissingRenderer kind="login provider" type={name} />;
}

/** A page a plugin registered for this path, if any. */
export function pluginPage(path: string) {
  return pages.get(path.replace(/^\/+|\/+$/g, ""));
}
