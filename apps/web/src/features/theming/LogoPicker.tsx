import { Button, FileButton, Group, Image, Input, Paper, Stack, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useId, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { errorText } from "../auth/errors.ts";
import { logoProblem, readAsDataUrl } from "./logo.ts";
import { logoChanged } from "./logo-src.ts";
import "./logo-texts.ts";

interface LogoPickerProps {
  /** The chosen logo as a data URL, "" for none. */
  value: string;
  onChange(value: string): void;
  error?: string;
  disabled?: boolean;
}

/**
 * Picks the event's logo: a file button, the file checked here for its type and size (the server
 * checks again), a preview, and a way back to Flagship's mark.
 */
export function LogoPicker({ value, onChange, error, disabled }: LogoPickerProps) {
  const { t } = useTranslation();
  const id = useId();
  const [problem, setProblem] = useState<string | null>(null);
  const shown = value || null;
  const pick = async (file: File | null) => {
    if (!file) return;
    const found = logoProblem(file);
    if (found) {
      setProblem(found === "type" ? t("logo.bad_type") : t("logo.too_big", { size: Math.ceil(file.size / 1024) }));
      return;
    }
    try {
      onChange(await readAsDataUrl(file));
      setProblem(null);
    } catch {
      setProblem(t("logo.unreadable"));
    }
  };
  const message = problem ?? error;
  return (
    <Input.Wrapper label={t("logo.label")} description={t("logo.hint")} error={message} id={id} labelElement="div">
      <Group gap="md" mt={6} wrap="nowrap" align="center">
        <Paper withBorder radius="md" w={64} h={64} p={6} style={{ flexShrink: 0, display: "grid", placeItems: "center" }}>
          {shown ? <Image src={shown} alt={t("logo.preview_alt")} fit="contain" w={50} h={50} data-testid="logo-preview" /> : <img src="/favicon.svg" alt="" width={40} height={40} />}
        </Paper>
        <Stack gap={6}>
          <Group gap="xs">
            <FileButton onChange={(file) => void pick(file)} accept="image/png,image/jpeg,image/webp,image/svg+xml" disabled={disabled}>
              {(props) => (
                <Button {...props} variant="default" size="xs" aria-describedby={message ? `${id}-error` : undefined}>
                  {shown ? t("logo.replace") : t("logo.choose")}
                </Button>
              )}
            </FileButton>
            {shown && (
              <Button variant="subtle" color="red" size="xs" onClick={() => onChange("")} disabled={disabled}>
                {t("logo.remove")}
              </Button>
            )}
          </Group>
          {!shown && (
            <Text size="xs" c="dimmed">
              {t("logo.none")}
            </Text>
          )}
        </Stack>
      </Group>
    </Input.Wrapper>
  );
}

/** The logo as a setting of its own, saved as soon as it is chosen or removed (the theme builder shows it). */
export function LogoSetting() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const stored = useQuery(trpc.config.get.queryOptions({ key: "logo" }));
  const save = useMutation(
    trpc.config.set.mutationOptions({
      onSuccess: async (_result, input) => {
        logoChanged();
        await queryClient.invalidateQueries({ queryKey: trpc.config.get.queryKey({ key: "logo" }) });
        notifications.show({ color: "green", message: input.value === "" ? t("logo.removed") : t("logo.saved") });
      },
      onError: (error) => notifications.show({ color: "red", title: t("logo.save_failed"), message: errorText(error) }),
    }),
  );
  const data: unknown = stored.data;
  const value = typeof data === "string" ? data : "";
  return <LogoPicker value={value} onChange={(next) => save.mutate({ key: "logo", value: next })} disabled={stored.isPending || save.isPending} />;
}
