import { Alert, Badge, Button, Code, CopyButton, Group, Skeleton, Stack, Table, Text, TextInput, VisuallyHidden } from "@mantine/core";
import { PERSONAL_TOKEN_MAX_DAYS } from "@flagship/shared";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ServerFormBox, useServerForm } from "../../../lib/forms.tsx";
import { addTexts, useTranslation } from "../../../lib/i18n.ts";
import { IntegerInput } from "../../../lib/IntegerInput.tsx";
import { useTRPC, useTRPCClient } from "../../../lib/trpc.ts";
import { useAppData } from "../../../shell/useAppData.ts";
import { errorText } from "../errors.ts";
import { SettingsSection } from "./SettingsSection.tsx";

addTexts({
  tokens: {
    title: "Personal access tokens",
    intro: "Tokens for scripts and the flagship command-line tool (FLAGSHIP_TOKEN). They act as you, with staff powers, until they expire or you revoke them.",
    name: "Name",
    name_hint: "What the token is for, such as “challenge sync”.",
    days: "Expires after (days)",
    create: "Create token",
    created: "Token “{{name}}” created.",
    shown_once: "Copy the token now: it is shown only this once.",
    copy: "Copy token",
    none: "No personal access tokens yet.",
    expires: "Expires",
    expired: "Expired",
    created_on: "Created",
    revoke: "Revoke",
    revoke_label: "Revoke {{name}}",
    revoked: "Token “{{name}}” revoked.",
  },
});

/** Settings → Personal access tokens (staff): create one (its key shown once), list and revoke them. */
export function PersonalTokensCard() {
  const { me } = useAppData();
  if (!me?.isStaff) return null;
  return <Tokens />;
}

function Tokens() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const list = useQuery(trpc.auth.personalTokens.queryOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.auth.personalTokens.queryKey() });
  const [shown, setShown] = useState<{ name: string; token: string } | null>(null);
  const server = useServerForm({
    initialValues: { name: "", expires_in_days: 30 as number | "" },
    validate: { name: (v) => (v.trim() === "" ? t("generic.required") : null) },
    submit: (values) => client.auth.createPersonalToken.mutate({ name: values.name, expires_in_days: Number(values.expires_in_days) }),
    success: (result) => t("tokens.created", { name: result.name }),
    onSuccess: async (result) => {
      setShown({ name: result.name, token: result.token });
      server.form.setValues({ name: "" });
      await refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (token: { id: number; name: string }) => client.auth.revokePersonalToken.mutate({ id: token.id }),
    onSuccess: async (_result, token) => {
      notifications.show({ color: "green", message: t("tokens.revoked", { name: token.name }) });
      if (shown?.name === token.name) setShown(null);
      await refresh();
    },
    onError: (error) => notifications.show({ color: "red", message: errorText(error) }),
  });
  const date = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: "numeric", month: "short", day: "numeric" });

  return (
    <SettingsSection title={t("tokens.title")} intro={t("tokens.intro")} testId="settings-tokens">
      <ServerFormBox server={server}>
        <Group align="flex-start" wrap="wrap">
          <TextInput label={t("tokens.name")} description={t("tokens.name_hint")} inputWrapperOrder={["label", "input", "description", "error"]} maxLength={64} style={{ flex: "1 1 14rem" }} {...server.form.getInputProps("name")} />
          <IntegerInput label={t("tokens.days")} min={1} max={PERSONAL_TOKEN_MAX_DAYS} style={{ flex: "0 1 10rem" }} {...server.form.getInputProps("expires_in_days")} />
        </Group>
        <Group mt="md">
          <Button type="submit" loading={server.pending}>
            {t("tokens.create")}
          </Button>
        </Group>
      </ServerFormBox>
      {shown && (
        <Alert color="yellow" title={t("tokens.shown_once")} data-testid="new-token">
          <Stack gap="xs">
            <Code block style={{ wordBreak: "break-all", whiteSpace: "pre-wrap" }}>
              {shown.token}
            </Code>
            <CopyButton value={shown.token}>
              {({ copied, copy }) => (
                <Button size="xs" variant="light" onClick={copy} w="fit-content">
                  {copied ? t("generic.copied") : t("tokens.copy")}
                </Button>
              )}
            </CopyButton>
          </Stack>
        </Alert>
      )}
      {list.isError ? (
        <Alert color="red" role="alert">
          {errorText(list.error)}
        </Alert>
      ) : !list.data ? (
        <Skeleton h={60} />
      ) : list.data.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t("tokens.none")}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={360}>
          <Table data-testid="token-list">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t("tokens.name")}</Table.Th>
                <Table.Th>{t("tokens.created_on")}</Table.Th>
                <Table.Th>{t("tokens.expires")}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t("tokens.revoke")}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {list.data.map((token) => (
                <Table.Tr key={token.id}>
                  <Table.Td>{token.name}</Table.Td>
                  <Table.Td>{date(token.created_at)}</Table.Td>
                  <Table.Td>{token.expired ? <Badge color="gray">{t("tokens.expired")}</Badge> : date(token.expires_at)}</Table.Td>
                  <Table.Td ta="right">
                    <Button size="xs" color="red" variant="light" aria-label={t("tokens.revoke_label", { name: token.name })} loading={revoke.isPending && revoke.variables?.id === token.id} onClick={() => revoke.mutate(token)}>
                      {t("tokens.revoke")}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </SettingsSection>
  );
}
