import { SIDEBAR_TYPES, THEME_COLOURS, type Theme, ZTheme } from "@flagship/shared";
import { Alert, Button, Card, ColorInput, Group, SegmentedControl, SimpleGrid, Stack, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { errorText } from "../auth/errors.ts";
import "../authoring/texts.ts";
import { AccentWarning } from "./AccentWarning.tsx";
import { LogoSetting } from "./LogoPicker.tsx";
import { setThemePreview, THEME_PRESETS } from "./themeState.ts";

/**
 * The theme builder: the palette's colours and the sidebar style, previewed live for the staff
 * member building it and saved as the event's theme (the `theme` config key) for everyone.
 */
export function ThemeBuilder() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { config } = useAppData();
  const saved = config?.theme ?? null;
  const [theme, setThemeState] = useState<Theme>(saved ?? THEME_PRESETS.light);
  const [touched, setTouched] = useState(false);
  const setTheme = (next: Theme | ((current: Theme) => Theme)) => {
    setTouched(true);
    setThemeState(next);
  };
  const valid = ZTheme.safeParse(theme).success;
  // Once staff change something, the preview shows it live for as long as the builder is open.
  useEffect(() => {
    if (touched && valid) setThemePreview(theme);
  }, [theme, valid, touched]);
  useEffect(() => () => setThemePreview(null), []);
  const save = useMutation(
    trpc.config.set.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.config.list.queryKey() });
        notifications.show({ color: "green", message: t("theme.saved") });
      },
      onError: (error) => notifications.show({ color: "red", title: t("theme.save_failed"), message: errorText(error) }),
    }),
  );
  return (
    <Card withBorder padding="lg" component="section" aria-label={t("theme.builder")}>
      <Stack gap="md">
        <Stack gap={2}>
          <Title order={2} size="h4">
            {t("theme.builder")}
          </Title>
          <Text size="sm" c="dimmed">
            {t("theme.builder_intro")}
          </Text>
        </Stack>
        <Group gap="xs">
          <Button variant="default" size="xs" onClick={() => setTheme(THEME_PRESETS.light)}>
            {t("theme.preset_light")}
          </Button>
          <Button variant="default" size="xs" onClick={() => setTheme(THEME_PRESETS.dark)}>
            {t("theme.preset_dark")}
          </Button>
        </Group>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
          {THEME_COLOURS.map((name) => (
            <ColorInput
              key={name}
              label={name}
              value={theme[name]}
              format="hex"
              withEyeDropper={false}
              onChange={(value) => setTheme((current) => ({ ...current, [name]: value }))}
              error={/^#[0-9a-fA-F]{6}$/.test(theme[name]) ? undefined : t("theme.colour_invalid")}
              data-testid={`theme-${name}`}
            />
          ))}
        </SimpleGrid>
        <AccentWarning colour={theme.primary} page={theme.light} />
        <Stack gap={4}>
          <Text size="sm" fw={500} id="sidebar-type-label">
            {t("theme.sidebar_type")}
          </Text>
          <SegmentedControl
            aria-labelledby="sidebar-type-label"
            value={theme.sidebarType}
            onChange={(value) => setTheme((current) => ({ ...current, sidebarType: value as Theme["sidebarType"] }))}
            data={SIDEBAR_TYPES.map((type) => ({ value: type, label: t(`theme.sidebar_${type}`) }))}
          />
        </Stack>
        <LogoSetting />
        {!valid && <Alert color="red">{t("theme.colour_invalid")}</Alert>}
        <Group justify="flex-end" gap="sm">
          {saved && (
            <Button variant="default" loading={save.isPending} onClick={() => save.mutate({ key: "theme", value: null })}>
              {t("theme.reset")}
            </Button>
          )}
          <Button disabled={!valid} loading={save.isPending} onClick={() => save.mutate({ key: "theme", value: theme })}>
            {t("theme.save")}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
