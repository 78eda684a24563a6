import { REGISTRATION_MODES, type RegistrationMode, type SetupInput, type Theme, ZSetupInput } from "@flagship/shared";
import {
  Alert,
  Anchor,
  Box,
  Button,
  Card,
  ColorInput,
  Group,
  Loader,
  NumberInput,
  PasswordInput,
  Radio,
  SegmentedControl,
  Stack,
  Stepper,
  Text,
  Textarea,
  TextInput,
  Title,
} from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { EventSpanFields } from "../../lib/EventTimeField.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { runtime } from "../../lib/runtime.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { Logo } from "../../shell/Logo.tsx";
import { PALETTES } from "../../theme.ts";
import { errorText, fieldErrors } from "../auth/errors.ts";
import { PasswordStrengthBar, usePasswordStrength } from "../auth/PasswordStrength.tsx";
import { useSwitchSession } from "../auth/useSession.ts";
import { LogoPicker } from "../theming/LogoPicker.tsx";
import { AccentWarning } from "../theming/AccentWarning.tsx";
import { setThemePreview, THEME_PRESETS } from "../theming/themeState.ts";
import "@mantine/core/styles/RadioCard.css";
import "@mantine/core/styles/RadioIndicator.css";
import "./texts.ts";


/** Where the setup ends: the staff console's pre-event check, which lists what is left to do. */
const SETUP_DONE_PAGE = "check";

interface Values {
  event_name: string;
  description: string;
  start_time: number | null;
  end_time: number | null;
  enable_teams: boolean;
  team_size: number;
  registration: RegistrationMode;
  colour: string;
  logo: string;
  username: string;
  email: string;
  password: string;
  password2: string;
}

type Field = keyof Values | "theme";
type Errors = Partial<Record<Field, string>>;

const STEPS = ["event", "schedule", "players", "look", "account"] as const;
/** The step that shows each field, so a refusal from the server opens the step at fault. */
const STEP_OF: Record<Field, number> = {
  event_name: 0,
  description: 0,
  start_time: 1,
  end_time: 1,
  enable_teams: 2,
  team_size: 2,
  registration: 2,
  colour: 3,
  theme: 3,
  logo: 3,
  username: 4,
  email: 4,
  password: 4,
  password2: 4,
};

const SWATCHES = ["#0f766e", "#1d4ed8", "#7c3aed", "#be123c", "#c2410c", "#15803d", "#334155"];

/** The builder's light theme with the chosen accent, or none to keep the built-in palettes. */
function themeFor(colour: string): Theme | null {
  if (!/^#[0-9a-fA-F]{6}$/.test(colour) || colour.toLowerCase() === PALETTES.light.primary) return null;
  return { ...THEME_PRESETS.light, primary: colour.toLowerCase() };
}

function toInput(values: Values): SetupInput {
  return {
    event_name: values.event_name,
    description: values.description,
    start_time: values.start_time,
    end_time: values.end_time,
    enable_teams: values.enable_teams,
    team_size: values.enable_teams ? values.team_size : 0,
    registration: values.registration,
    theme: themeFor(values.colour),
    logo: values.logo,
    username: values.username,
    email: values.email,
    password: values.password,
  };
}

/**
 * /setup: the first-run setup a fresh Flagship greets its first visitor with. Five short steps,
 * each checked before the next (with the same schema the server checks), then one call that makes
 * the event and its first staff account; the new account is signed in on the staff console.
 */
export function SetupPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const status = useQuery(trpc.setup.status.queryOptions());
  return (
    <Box component="main" id="main" px="md" py={{ base: "md", sm: 48 }} className="setup-page">
      <Stack maw={960} mx="auto" gap="lg">
        <Group gap="sm">
          <Logo size={36} />
        </Group>
        {status.isPending ? (
          <Stack gap="md">
            <Title order={1}>{t("setup.title")}</Title>
            <Loader aria-label={t("generic.loading")} />
          </Stack>
        ) : status.data?.needed === false ? (
          <AlreadySetUp />
        ) : (
          <SetupFlow sso={status.data?.sso ?? false} />
        )}
      </Stack>
    </Box>
  );
}

function AlreadySetUp() {
  const { t } = useTranslation();
  useEffect(() => {
    runtime.setup = false;
  }, []);
  return (
    <Stack gap="md">
      <Title order={1}>{t("setup.already_title")}</Title>
      <Text>{t("setup.already_body")}</Text>
      <Group>
        <Button component={Link} to="/login">
          {t("setup.log_in")}
        </Button>
      </Group>
    </Stack>
  );
}

function SetupFlow({ sso }: { sso: boolean }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const navigate = useNavigate();
  const switchSession = useSwitchSession();
  const [step, setStep] = useState(0);
  const [values, setValues] = useState<Values>({
    event_name: "",
    description: "",
    start_time: null,
    end_time: null,
    enable_teams: true,
    team_size: 4,
    registration: "open",
    colour: PALETTES.light.primary,
    logo: "",
    username: "",
    email: "",
    password: "",
    password2: "",
  });
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const strength = usePasswordStrength(values.password, [values.username, values.email, values.event_name]);
  const complete = useMutation(trpc.setup.complete.mutationOptions());

  const set = <K extends keyof Values>(field: K) => (value: Values[K]) => {
    setValues((v) => ({ ...v, [field]: value }));
    setErrors((e) => (e[field] ? { ...e, [field]: undefined } : e));
  };

  // The chosen colour is previewed on the page itself while the setup is open.
  useEffect(() => {
    setThemePreview(themeFor(values.colour));
  }, [values.colour]);
  useEffect(() => () => setThemePreview(null), []);

  /** The schema's complaints about the fields of steps up to `last`, plus the checks only a person needs. */
  const check = (last: number): Errors => {
    const found: Errors = {};
    const parsed = ZSetupInput.safeParse(toInput(values));
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0]) as Field;
        found[field] ??= field === "event_name" ? t("setup.event_name_missing") : issue.message;
      }
    }
    if (values.end_time !== null && values.start_time === null) found.start_time = t("setup.start_missing");
    if (values.password !== "" && strength && !strength.strong) found.password = strength.feedback ? `${t("auth.pass_weak")}: ${strength.feedback}` : t("auth.pass_weak");
    if (values.password2 !== values.password) found.password2 = t("auth.pass_match");
    if (values.username.trim() === "") found.username = t("account.no_username");
    if (values.email.trim() === "") found.email = t("auth.no_email");
    if (values.password === "") found.password = t("account.no_password");
    return Object.fromEntries(Object.entries(found).filter(([field]) => STEP_OF[field as Field] <= last)) as Errors;
  };

  const goTo = (next: number) => {
    setStep(next);
    // The new step's heading takes focus, so a screen reader announces where the player is.
    requestAnimationFrame(() => heading.current?.focus());
  };

  const next = (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const found = check(step);
    setErrors(found);
    const first = Object.keys(found)[0] as Field | undefined;
    if (first) {
      if (STEP_OF[first] !== step) goTo(STEP_OF[first]);
      return;
    }
    if (step < STEPS.length - 1) {
      goTo(step + 1);
      return;
    }
    complete.mutate(toInput(values), {
      onSuccess: async ({ token }) => {
        runtime.setup = false;
        switchSession(token);
        setThemePreview(null);
        notifications.show({ color: "green", message: t("setup.done") });
        await navigate({ to: "/admin/$page", params: { page: SETUP_DONE_PAGE } });
      },
      onError: (error) => {
        const fields = Object.fromEntries(Object.entries(fieldErrors(error)).filter(([field]) => field in STEP_OF)) as Errors;
        setErrors(fields);
        const first = Object.keys(fields)[0] as Field | undefined;
        if (first) goTo(STEP_OF[first]);
        else setFailure(errorText(error));
      },
    });
  };

  const names = STEPS.map((s) => t(`setup.step_${s}`));
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={1}>{t("setup.title")}</Title>
        <Text c="dimmed">{t("setup.intro")}</Text>
      </Stack>
      <Stepper active={step} size="sm" allowNextStepsSelect={false} onStepClick={goTo} aria-label={t("setup.title")} visibleFrom="sm">
        {STEPS.map((s) => (
          <Stepper.Step key={s} label={t(`setup.step_${s}`)} description={t(`setup.step_${s}_hint`)} />
        ))}
      </Stepper>
      <Card withBorder radius="lg" p={{ base: "md", sm: "xl" }} component="form" onSubmit={next} noValidate aria-labelledby="setup-step-title">
        <Stack gap="md">
          <Text size="sm" c="dimmed" data-testid="setup-progress">
            {t("setup.progress", { step: step + 1, total: STEPS.length, name: names[step] })}
          </Text>
          <Title order={2} size="h3" id="setup-step-title" ref={heading} tabIndex={-1}>
            {names[step]}
          </Title>
          {step === 0 && (
            <>
              <TextInput label={t("setup.event_name")} description={t("setup.event_name_hint")} required value={values.event_name} onChange={(e) => set("event_name")(e.currentTarget.value)} error={errors.event_name} data-autofocus autoFocus />
              <Textarea label={t("setup.description")} description={t("setup.description_hint")} autosize minRows={4} maxRows={12} value={values.description} onChange={(e) => set("description")(e.currentTarget.value)} error={errors.description} />
            </>
          )}
          {step === 1 && (
            <>
              <Text size="sm">{t("setup.schedule_intro")}</Text>
              <EventSpanFields
                start={values.start_time}
                end={values.end_time}
                onStartChange={set("start_time")}
                onEndChange={set("end_time")}
                startLabel={t("setup.start")}
                endLabel={t("setup.end")}
                startError={errors.start_time}
                endError={errors.end_time}
              />
            </>
          )}
          {step === 2 && (
            <>
              <Stack gap={6}>
                <Text size="sm" fw={500} id="setup-format-label">
                  {t("setup.format")}
                </Text>
                <SegmentedControl
                  aria-labelledby="setup-format-label"
                  value={values.enable_teams ? "teams" : "solo"}
                  onChange={(v) => set("enable_teams")(v === "teams")}
                  data={[
                    { value: "teams", label: t("setup.teams") },
                    { value: "solo", label: t("setup.solo") },
                  ]}
                  fullWidth
                />
                <Text size="xs" c="dimmed">
                  {values.enable_teams ? t("setup.teams_hint") : t("setup.solo_hint")}
                </Text>
              </Stack>
              {values.enable_teams && (
                <NumberInput label={t("setup.team_size")} description={t("setup.team_size_hint")} min={0} max={100_000} allowDecimal={false} allowNegative={false} value={values.team_size} onChange={(v) => set("team_size")(typeof v === "number" ? v : 0)} error={errors.team_size} />
              )}
              <Radio.Group label={t("setup.registration")} value={values.registration} onChange={(v) => set("registration")(v as RegistrationMode)} error={errors.registration}>
                <Stack gap="xs" mt="xs">
                  {REGISTRATION_MODES.map((mode) => (
                    <Radio.Card key={mode} value={mode} radius="md" p="md" disabled={mode === "sso" && !sso} className="setup-choice">
                      <Group wrap="nowrap" align="flex-start">
                        <Radio.Indicator disabled={mode === "sso" && !sso} />
                        <Stack gap={2}>
                          <Text fw={600} size="sm">
                            {t(`setup.registration_${mode}`)}
                          </Text>
                          <Text size="xs" c="dimmed">
                            {mode === "sso" && !sso ? t("setup.registration_sso_off") : t(`setup.registration_${mode}_hint`)}
                          </Text>
                        </Stack>
                      </Group>
                    </Radio.Card>
                  ))}
                </Stack>
              </Radio.Group>
            </>
          )}
          {step === 3 && (
            <>
              <Text size="sm">{t("setup.look_intro")}</Text>
              <ColorInput label={t("setup.colour")} description={t("setup.colour_hint")} format="hex" swatches={SWATCHES} swatchesPerRow={7} value={values.colour} onChange={set("colour")} error={errors.colour ?? errors.theme} withEyeDropper={false} withPicker={false} popoverProps={{ withinPortal: false }} />
              <AccentWarning colour={values.colour} page={PALETTES.light.light} />
              <Group gap="sm">
                <Button variant="subtle" size="xs" onClick={() => set("colour")(PALETTES.light.primary)}>
                  {t("setup.keep_default")}
                </Button>
              </Group>
              <LogoPicker value={values.logo} onChange={set("logo")} error={errors.logo} />
              <Card withBorder radius="md" padding="md" aria-label={t("setup.preview")} component="section">
                <Group gap="md">
                  <Button tabIndex={-1} aria-hidden="true">
                    {t("setup.preview_button")}
                  </Button>
                  <Anchor component="span">{t("setup.preview_link")}</Anchor>
                </Group>
              </Card>
            </>
          )}
          {step === 4 && (
            <>
              <Text size="sm">{t("setup.account_intro")}</Text>
              <TextInput label={t("account.username")} required autoComplete="username" value={values.username} onChange={(e) => set("username")(e.currentTarget.value)} error={errors.username} />
              <TextInput label={t("account.email")} required type="email" autoComplete="email" value={values.email} onChange={(e) => set("email")(e.currentTarget.value)} error={errors.email} />
              <Stack gap={6}>
                <PasswordInput label={t("account.password")} required autoComplete="new-password" value={values.password} onChange={(e) => set("password")(e.currentTarget.value)} error={errors.password} />
                <PasswordStrengthBar strength={strength} show={values.password !== ""} />
              </Stack>
              <PasswordInput label={t("account.password2")} required autoComplete="new-password" value={values.password2} onChange={(e) => set("password2")(e.currentTarget.value)} error={errors.password2} />
            </>
          )}
          {failure && (
            <Alert color="red" role="alert">
              {failure}
            </Alert>
          )}
          <Group justify="space-between" mt="sm">
            <Button variant="default" onClick={() => goTo(step - 1)} disabled={step === 0 || complete.isPending}>
              {t("setup.back")}
            </Button>
            <Button type="submit" loading={complete.isPending}>
              {step < STEPS.length - 1 ? t("setup.next") : t("setup.create")}
            </Button>
          </Group>
        </Stack>
      </Card>
    </Stack>
  );
}
