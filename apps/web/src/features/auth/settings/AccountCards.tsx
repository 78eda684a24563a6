import { Alert, Badge, Button, Group, PasswordInput, SimpleGrid, Skeleton, Stack, Switch, Text, Textarea, TextInput } from "@mantine/core";
import { LIMITS, NOTIFICATION_KINDS, type NotificationKind } from "@flagship/shared";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { type FormEvent, useEffect, useState } from "react";
import { Dialog } from "../../../lib/Dialog.tsx";
import { useTranslation } from "../../../lib/i18n.ts";
import { useTRPC } from "../../../lib/trpc.ts";
import { useAppData } from "../../../shell/useAppData.ts";
import { errorText, fieldErrors } from "../errors.ts";
import { PasswordStrengthBar, usePasswordStrength } from "../PasswordStrength.tsx";
import { useSwitchSession } from "../useSession.ts";
import { SettingsSection } from "./SettingsSection.tsx";

function useSelf() {
  const trpc = useTRPC();
  return useQuery(trpc.account.self.queryOptions());
}

function useInvalidateAccount() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: trpc.account.self.queryKey() });
    void queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
  };
}

/**
 * A text input with the specs' limit: a live counter, and input truncated at the limit. A hint goes
 * under the input (as the bio's counter does), so inputs side by side stay in line with or without one.
 */
function Counted(props: { label: string; value: string; max: number; onChange: (v: string) => void; error?: string | undefined; description?: string; digits?: boolean }) {
  return (
    <TextInput
      label={props.label}
      description={props.description}
      inputWrapperOrder={["label", "input", "description", "error"]}
      value={props.value}
      maxLength={props.max}
      inputMode={props.digits ? "numeric" : undefined}
      onChange={(e) => props.onChange((props.digits ? e.currentTarget.value.replace(/\D/g, "") : e.currentTarget.value).slice(0, props.max))}
      error={props.error}
      rightSectionWidth={64}
      rightSection={
        <Text size="xs" c="dimmed" aria-hidden>
          {props.value.length}/{props.max}
        </Text>
      }
    />
  );
}

type ProfileFields = { discord: string; discordid: string; twitter: string; reddit: string; bio: string };

/**
 * The profile form, shown once the account has loaded: it starts from the saved values and is never
 * overwritten by a later reload, so nothing typed is lost to a refetch.
 */
export function ProfileCard() {
  const { t } = useTranslation();
  const self = useSelf();
  if (!self.data) {
    return (
      <SettingsSection title={t("settings.profile")} intro={t("settings.profile_intro")} testId="settings-profile">
        {self.isError ? (
          <Alert color="red" role="alert">
            {errorText(self.error)}
          </Alert>
        ) : (
          <Skeleton h={220} />
        )}
      </SettingsSection>
    );
  }
  const { discord, discordid, twitter, reddit, bio } = self.data;
  return <ProfileForm initial={{ discord, discordid, twitter, reddit, bio }} />;
}

function ProfileForm({ initial }: { initial: ProfileFields }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const invalidate = useInvalidateAccount();
  const [form, setForm] = useState<ProfileFields>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const update = useMutation(trpc.account.update.mutationOptions());
  const set = (field: keyof typeof form) => (value: string) => setForm((f) => ({ ...f, [field]: value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setErrors({});
    update.mutate(form, {
      onSuccess: () => {
        invalidate();
        notifications.show({ message: t("settings.saved"), color: "green" });
      },
      onError: (error) => setErrors({ ...fieldErrors(error), form: errorText(error) }),
    });
  };
  return (
    <SettingsSection title={t("settings.profile")} intro={t("settings.profile_intro")} testId="settings-profile">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <Counted label={t("settings.discord")} value={form.discord} max={LIMITS.discord} onChange={set("discord")} error={errors.discord} />
            <Counted label={t("settings.discordid")} description={t("settings.discordid_hint")} value={form.discordid} max={LIMITS.discordId} onChange={set("discordid")} error={errors.discordid} digits />
            <Counted label={t("settings.twitter")} value={form.twitter} max={LIMITS.twitter} onChange={set("twitter")} error={errors.twitter} />
            <Counted label={t("settings.reddit")} value={form.reddit} max={LIMITS.reddit} onChange={set("reddit")} error={errors.reddit} />
          </SimpleGrid>
          <Textarea
            label={t("settings.bio")}
            value={form.bio}
            maxLength={LIMITS.bio}
            onChange={(e) => set("bio")(e.currentTarget.value.slice(0, LIMITS.bio))}
            autosize
            minRows={3}
            maxRows={8}
            error={errors.bio}
            description={`${form.bio.length}/${LIMITS.bio}`}
            inputWrapperOrder={["label", "input", "description", "error"]}
          />
          {errors.form && !["discord", "discordid", "twitter", "reddit", "bio"].some((f) => errors[f as keyof typeof errors]) && (
            <Alert color="red" role="alert">
              {errors.form}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button type="submit" loading={update.isPending}>
              {t("settings.save")}
            </Button>
          </Group>
        </Stack>
      </form>
    </SettingsSection>
  );
}

export function NotificationsCard() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const prefs = useQuery(trpc.account.notifications.queryOptions());
  const update = useMutation(trpc.account.setNotifications.mutationOptions());
  const toggle = (kind: NotificationKind, value: boolean) =>
    update.mutate(
      { [kind]: value },
      {
        onSuccess: (data) => queryClient.setQueryData(trpc.account.notifications.queryKey(), data),
        onError: (error) => notifications.show({ message: errorText(error), color: "red" }),
      },
    );
  return (
    <SettingsSection title={t("settings.notifications_title")} intro={t("settings.notifications_intro")} testId="settings-notifications">
      <Stack gap="sm">
        {NOTIFICATION_KINDS.map((kind) => (
          <Switch key={kind} label={t(`settings.notify_${kind}`)} checked={prefs.data?.[kind] ?? true} disabled={!prefs.data} onChange={(e) => toggle(kind, e.currentTarget.checked)} />
        ))}
      </Stack>
    </SettingsSection>
  );
}

export function TwoFactorCard() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const self = useSelf();
  const invalidate = useInvalidateAccount();
  const [mode, setMode] = useState<"remove" | "codes" | null>(null);
  const [otp, setOtp] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const remove = useMutation(trpc.auth.remove2fa.mutationOptions());
  const regenerate = useMutation(trpc.auth.regenerateBackupCodes.mutationOptions());
  const on = self.data?.has_2fa === true;
  const close = () => {
    setMode(null);
    setOtp("");
    setError(null);
    setCodes(null);
  };
  const submitRemove = (event: FormEvent) => {
    event.preventDefault();
    remove.mutate(
      { otp },
      {
        onSuccess: () => {
          close();
          invalidate();
          notifications.show({ message: t("settings.tfa_removed"), color: "green" });
        },
        onError: (e) => setError(`${t("2fa.remove_failed")} ${errorText(e)}`),
      },
    );
  };
  return (
    <SettingsSection title={t("settings.tfa_title")} intro={on ? t("settings.tfa_on") : t("settings.tfa_off")} testId="settings-2fa">
      <Group>
        {on ? (
          <>
            <Badge color="green" variant="light" size="lg">
              2FA
            </Badge>
            <Button variant="default" onClick={() => regenerate.mutate(undefined, { onSuccess: (d) => (setCodes(d.backup_codes), setMode("codes")) })} loading={regenerate.isPending}>
              {t("settings.tfa_regenerate")}
            </Button>
            <Button variant="light" color="red" onClick={() => setMode("remove")}>
              {t("settings.tfa_remove")}
            </Button>
          </>
        ) : (
          <Button component={Link} to="/settings/2fa">
            {t("settings.tfa_enable")}
          </Button>
        )}
      </Group>
      <Dialog opened={mode === "remove"} onClose={close} title={t("settings.tfa_remove")} centered>
        <form onSubmit={submitRemove}>
          <Stack>
            <Text size="sm">{t("settings.tfa_remove_prompt")}</Text>
            <TextInput label={t("account.tfa_code")} value={otp} onChange={(e) => setOtp(e.currentTarget.value.trim().slice(0, 8))} error={error} autoComplete="one-time-code" data-autofocus />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                {t("account.cancel")}
              </Button>
              <Button type="submit" color="red" loading={remove.isPending} disabled={otp.length < 6}>
                {t("settings.tfa_remove")}
              </Button>
            </Group>
          </Stack>
        </form>
      </Dialog>
      <Dialog opened={mode === "codes" && codes !== null} onClose={close} title={t("settings.tfa_regenerate")} centered>
        <Stack>
          <Text size="sm">{t("tfa.done_intro")}</Text>
          <BackupCodes codes={codes ?? []} />
          <Group justify="flex-end">
            <Button onClick={close}>{t("tfa.finish")}</Button>
          </Group>
        </Stack>
      </Dialog>
    </SettingsSection>
  );
}

export function BackupCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation();
  const [copied, setCopied] = useState(false);
  return (
    <Stack gap="xs">
      <SimpleGrid cols={2} spacing="xs" data-testid="backup-codes">
        {codes.map((code) => (
          <Text key={code} ff="monospace" ta="center" py={6} style={{ border: "1px solid var(--mantine-color-default-border)", borderRadius: 6, letterSpacing: "0.1em" }}>
            {code}
          </Text>
        ))}
      </SimpleGrid>
      <Button
        variant="light"
        size="xs"
        onClick={() => {
          void navigator.clipboard?.writeText(codes.join("\n")).then(() => setCopied(true));
        }}
      >
        {copied ? t("tfa.copied") : t("tfa.copy_codes")}
      </Button>
    </Stack>
  );
}

export function UsernameCard() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { me } = useAppData();
  const invalidate = useInvalidateAccount();
  const [username, setUsername] = useState("");
  const [error, setError] = useState<string | null>(null);
  const update = useMutation(trpc.account.update.mutationOptions());
  // Follows the saved username only when it changes, not on every reload of the session.
  const saved = me?.username;
  useEffect(() => {
    if (saved !== undefined) setUsername(saved);
  }, [saved]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = username.trim();
    if (value === "") return setError(t("settings.username_required"));
    if (value === me?.username) return setError(t("settings.username_unchanged"));
    setError(null);
    update.mutate(
      { username: value },
      {
        onSuccess: () => {
          invalidate();
          notifications.show({ message: t("settings.username_changed"), color: "green" });
        },
        onError: (e) => setError(fieldErrors(e).username ?? errorText(e)),
      },
    );
  };
  return (
    <SettingsSection title={t("settings.username_title")} testId="settings-username">
      <form onSubmit={submit} noValidate>
        <Group align="flex-start" wrap="wrap">
          <div style={{ flex: 1, minWidth: 220 }}>
            <Counted label={t("account.username")} value={username} max={LIMITS.username} onChange={setUsername} error={error ?? undefined} />
          </div>
          <Button type="submit" mt={25} loading={update.isPending}>
            {t("settings.save")}
          </Button>
        </Group>
      </form>
    </SettingsSection>
  );
}

export function PasswordCard() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { me } = useAppData();
  const [form, setForm] = useState({ old: "", password: "", password2: "" });
  const [errors, setErrors] = useState<{ old?: string; password?: string; password2?: string }>({});
  const strength = usePasswordStrength(form.password, [me?.username ?? "", me?.email ?? ""]);
  const change = useMutation(trpc.auth.changePassword.mutationOptions());
  const set = (field: keyof typeof form) => (e: { currentTarget: { value: string } }) => setForm((f) => ({ ...f, [field]: e.currentTarget.value }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const e: typeof errors = {};
    if (form.old === "") e.old = t("settings.current_required");
    if (form.password === "") e.password = t("settings.new_required");
    else if (strength && !strength.strong) e.password = t("auth.pass_weak");
    if (form.password2 === "") e.password2 = t("generic.required");
    else if (form.password2 !== form.password) e.password2 = t("auth.pass_match");
    setErrors(e);
    if (Object.keys(e).length > 0) return;
    change.mutate(
      { old_password: form.old, password: form.password },
      {
        onSuccess: () => {
          setForm({ old: "", password: "", password2: "" });
          notifications.show({ message: t("settings.password_changed"), color: "green" });
        },
        onError: (error) => {
          const fields = fieldErrors(error);
          setErrors({ ...(fields.old_password && { old: fields.old_password }), ...(fields.password && { password: fields.password }) });
          if (!fields.old_password && !fields.password) setErrors({ old: errorText(error) });
        },
      },
    );
  };
  return (
    <SettingsSection title={t("settings.password_title")} intro={t("settings.password_intro")} testId="settings-password">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <PasswordInput label={t("account.current_password")} autoComplete="current-password" value={form.old} onChange={set("old")} error={errors.old} />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <div>
              <PasswordInput label={t("account.new_password")} autoComplete="new-password" value={form.password} onChange={set("password")} error={errors.password} />
              <PasswordStrengthBar strength={strength} show={form.password !== ""} />
            </div>
            <PasswordInput label={t("account.password2")} autoComplete="new-password" value={form.password2} onChange={set("password2")} error={errors.password2} />
          </SimpleGrid>
          <Group justify="flex-end">
            <Button type="submit" loading={change.isPending}>
              {t("settings.change_password")}
            </Button>
          </Group>
        </Stack>
      </form>
    </SettingsSection>
  );
}

export function DangerCard() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const navigate = useNavigate();
  const switchSession = useSwitchSession();
  const { me } = useAppData();
  const [opened, setOpened] = useState(false);
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const remove = useMutation(trpc.account.delete.mutationOptions());
  if (me?.impersonating) return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (password === "") return setError(t("settings.current_required"));
    remove.mutate(
      { password },
      {
        onSuccess: () => {
          switchSession(null);
          notifications.show({ message: t("settings.deleted"), color: "gray" });
          void navigate({ to: "/" });
        },
        onError: (e) => setError(fieldErrors(e).password ?? errorText(e)),
      },
    );
  };
  return (
    <SettingsSection title={t("settings.danger_title")} intro={t("settings.danger_intro")} danger testId="settings-danger">
      <Group>
        <Button color="red" variant="light" onClick={() => setOpened(true)}>
          {t("settings.delete")}
        </Button>
      </Group>
      <Dialog opened={opened} onClose={() => setOpened(false)} title={t("settings.delete")} centered>
        <form onSubmit={submit} noValidate>
          <Stack>
            <Alert color="red" variant="light">
              {t("settings.delete_prompt")}
            </Alert>
            <PasswordInput label={t("account.current_password")} value={password} onChange={(e) => setPassword(e.currentTarget.value)} error={error} data-autofocus />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpened(false)}>
                {t("account.cancel")}
              </Button>
              <Button type="submit" color="red" loading={remove.isPending}>
                {t("settings.delete_confirm")}
              </Button>
            </Group>
          </Stack>
        </form>
      </Dialog>
    </SettingsSection>
  );
}
