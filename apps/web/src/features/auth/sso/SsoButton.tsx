import { Button } from "@mantine/core";
import { errorMessage } from "@flagship/shared";
import { notifications } from "@mantine/notifications";
import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "../../../lib/i18n.ts";
import { session } from "../../../lib/session.ts";
import { useTRPC } from "../../../lib/trpc.ts";

/** Whether single sign-on is set up on the server, and the provider's name. */
export function useSsoInfo(): { enabled: boolean; name: string; loading: boolean } {
  const trpc = useTRPC();
  const info = useQuery({ ...trpc.auth.oidcInfo.queryOptions(), staleTime: Infinity });
  return { enabled: info.data?.enabled === true, name: info.data?.name ?? "", loading: info.isPending };
}

/**
 * "Sign in with <provider>": a plain link to the server's /auth/oidc/start, which sends the
 * browser on to the provider (a page navigation, not an API call). "Link your <provider> account"
 * is begun by the signed-in account itself: a POST with the session token (which the server keeps
 * on the round trip) answers the provider's URL, and the browser goes there.
 */
export function SsoButton({ name, purpose = "login", label, variant = "filled" }: { name: string; purpose?: "login" | "link" | "signup"; label?: string; variant?: "filled" | "default" }) {
  const { t } = useTranslation();
  const text = label ?? t(purpose === "signup" ? "sso.sign_up_with" : purpose === "link" ? "sso.link_with" : "sso.sign_in_with", { name });
  if (purpose === "link") return <LinkButton text={text} variant={variant} />;
  return (
    <Button component="a" href="/auth/oidc/start" variant={variant} size="md" fullWidth data-testid={`sso-${purpose}`}>
      {text}
    </Button>
  );
}

function LinkButton({ text, variant }: { text: string; variant: "filled" | "default" }) {
  const [pending, setPending] = useState(false);
  const start = async () => {
    setPending(true);
    let code = "sso_failed";
    try {
      const token = session.token;
      const response = await fetch("/auth/oidc/start", { method: "POST", credentials: "same-origin", headers: token ? { authorization: `Token ${token}` } : {} });
      const body = (await response.json()) as { url?: unknown; error?: unknown };
      if (response.ok && typeof body.url === "string") {
        window.location.assign(body.url);
        return;
      }
      if (typeof body.error === "string") code = body.error;
    } catch {
      // A network failure: the generic message below.
    }
    setPending(false);
    notifications.show({ color: "red", message: errorMessage(code) });
  };
  return (
    <Button variant={variant} size="md" loading={pending} onClick={() => void start()} data-testid="sso-link">
      {text}
    </Button>
  );
}
