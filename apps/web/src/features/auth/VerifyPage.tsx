import { Alert, Button, Stack } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { Navigate, useNavigate, useSearch } from "@tanstack/react-router";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { AuthCard } from "./AuthCard.tsx";
import { errorText } from "./errors.ts";
import { useSwitchSession } from "./useSession.ts";

/** /verify?id&secret: states idle, pending, failed, succeeded. */
export function VerifyPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const navigate = useNavigate();
  const switchSession = useSwitchSession();
  const search = useSearch({ strict: false }) as { id?: unknown; secret?: unknown };
  const { me } = useAppData();
  const verify = useMutation(trpc.auth.verifyEmail.mutationOptions());

  const id = search.id === undefined ? "" : String(search.id);
  const secret = search.secret === undefined ? "" : String(search.secret);
  if (!id || !secret) return <Navigate to="/login" replace />;
  if (me?.emailVerified && !verify.isSuccess) return <Navigate to="/" replace />;

  const run = () =>
    verify.mutate(
      { uid: Number(id), token: secret },
      {
        onSuccess: ({ token }) => {
          if (token) {
            switchSession(token);
            notifications.show({ message: t("account.verified"), color: "green" });
            void navigate({ to: "/welcome" });
          } else {
            notifications.show({ message: t("account.verified_login"), color: "green" });
            void navigate({ to: "/login" });
          }
        },
      },
    );

  return (
    <AuthCard title={t("account.verify_title")} intro={t("account.verify_intro")}>
      <Stack>
        {verify.isError && (
          <Alert color="red" variant="light" title={t("account.verify_failed")} role="alert" data-testid="verify-failed">
            {errorText(verify.error)}
          </Alert>
        )}
        <Button size="md" onClick={run} loading={verify.isPending} disabled={verify.isSuccess}>
          {t("account.verify_button")}
        </Button>
      </Stack>
    </AuthCard>
  );
}
