import { Button } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { useTRPC } from "../../../lib/trpc.ts";

/** Whether single sign-on is set up on the server, and the provider's name. */
export function useSsoInfo(): { enabled: boolean; name: string; loading: boolean } {
  const trpc = useTRPC();
  const info = useQuery({ ...trpc.auth.oidcInfo.queryOptions(), staleTime: Infinity });
  return { enabled: info.data?.enabled === true, name: info.data?.name ?? "", loading: info.isPending };
}

/**
 * "Sign in with <provider>": a plain link to the server's /auth/oidc/start, which sends the
 * browser on to the provider (a page navigation, not an API call).
 */
export function SsoButton({ name, purpose = "login", label, variant = "filled" }: { name: string; purpose?: "login" | "link" | "signup"; label?: string; variant?: "filled" | "default" }) {
  const { t } = useTranslation();
  const href = purpose === "link" ? "/auth/oidc/start?purpose=link" : "/auth/oidc/start";
  const text = label ?? t(purpose === "signup" ? "sso.sign_up_with" : purpose === "link" ? "sso.link_with" : "sso.sign_in_with", { name });
  return (
    <Button component="a" href={href} variant={variant} size="md" fullWidth={purpose !== "link"} data-testid={`sso-${purpose}`}>
      {text}
    </Button>
  );
}
