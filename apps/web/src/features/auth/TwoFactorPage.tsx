import { Alert, Anchor, Button, Center, Code, Group, Loader, Paper, Stack, Stepper, Text, TextInput, Title } from "@mantine/core";
import { groupSecret } from "@flagship/shared";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import QRCode from "qrcode";
import { type FormEvent, useEffect, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { errorText } from "./errors.ts";
import { BackupCodes } from "./settings/AccountCards.tsx";

/** The wizard's steps, as the spec numbers them: 0 intro, 1 enabling, 2 scan and confirm, 3 done, -1 error. */
type Step = 0 | 1 | 2 | 3 | -1;

export function TwoFactorPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { me } = useAppData();
  const [step, setStep] = useState<Step>(0);
  const [secret, setSecret] = useState("");
  const [qr, setQr] = useState("");
  const [otp, setOtp] = useState("");
  const [otpError, setOtpError] = useState<string | null>(null);
  const [failure, setFailure] = useState("");
  const [codes, setCodes] = useState<string[]>([]);
  const add = useMutation(trpc.auth.add2fa.mutationOptions());
  const verify = useMutation(trpc.auth.verify2fa.mutationOptions());

  useEffect(() => {
    if (step !== 2 || !secret) return;
    let live = true;
    const dark = document.documentElement.getAttribute("data-mantine-color-scheme") === "dark";
    const uri = add.data?.uri ?? "";
    void QRCode.toDataURL(uri, { margin: 1, width: 220, color: dark ? { dark: "#e6edf3", light: "#0d1117" } : undefined }).then((url) => live && setQr(url));
    return () => {
      live = false;
    };
  }, [step, secret, add.data]);

  const start = () => {
    setStep(1);
    add.mutate(undefined, {
      onSuccess: (data) => {
        setSecret(data.totp_secret);
        setStep(2);
      },
      onError: (error) => {
        setFailure(`${t("2fa.unable_to_active")} ${errorText(error)}`);
        setStep(-1);
      },
    });
  };

  const confirm = (event: FormEvent) => {
    event.preventDefault();
    setOtpError(null);
    verify.mutate(
      { otp },
      {
        onSuccess: (result) => {
          if (!result.valid) return setOtpError(t("2fa.validation_fail"));
          setCodes(result.backup_codes);
          setStep(3);
          void queryClient.invalidateQueries({ queryKey: trpc.auth.me.queryKey() });
          void queryClient.invalidateQueries({ queryKey: trpc.account.self.queryKey() });
        },
        onError: (error) => {
          setFailure(`${t("2fa.validation_fail")} ${errorText(error)}`);
          setStep(-1);
        },
      },
    );
  };

  const active = step === 3 ? 2 : step === 2 ? 1 : 0;
  const labels = t("tfa.steps", { returnObjects: true }) as string[];

  return (
    <Stack maw={640} mx="auto" py="md" gap="lg">
      <Title order={1}>{t("tfa.title")}</Title>
      <Stepper active={active} size="sm" allowNextStepsSelect={false}>
        {labels.map((label) => (
          <Stepper.Step key={label} label={label} />
        ))}
      </Stepper>
      <Paper withBorder radius="lg" p={{ base: "md", sm: "xl" }} data-testid={`tfa-step-${step}`}>
        {step === 0 &&
          (me?.has2fa ? (
            <Stack>
              <Alert color="green" variant="light">
                {t("tfa.already")}
              </Alert>
              <Anchor component={Link} to="/settings">
                {t("tfa.finish")}
              </Anchor>
            </Stack>
          ) : (
            <Stack>
              <Text>{t("tfa.intro")}</Text>
              <Group>
                <Button onClick={start}>{t("tfa.start")}</Button>
              </Group>
            </Stack>
          ))}
        {step === 1 && (
          <Center py="xl">
            <Stack align="center">
              <Loader />
              <Text c="dimmed">{t("tfa.enabling")}</Text>
            </Stack>
          </Center>
        )}
        {step === 2 && (
          <form onSubmit={confirm} noValidate>
            <Stack align="center" gap="md">
              <Text ta="center">{t("tfa.scan")}</Text>
              {qr ? <img src={qr} alt="QR code" width={220} height={220} style={{ borderRadius: 8 }} /> : <Loader />}
              <Stack gap={4} align="center">
                <Text size="sm" c="dimmed">
                  {t("tfa.manual")}
                </Text>
                <Code fz="md" data-testid="totp-secret" style={{ letterSpacing: "0.08em" }}>
                  {groupSecret(secret)}
                </Code>
                <Text size="xs" c="dimmed">
                  {add.data?.issuer}
                </Text>
              </Stack>
              <TextInput
                label={t("tfa.code")}
                value={otp}
                onChange={(e) => setOtp(e.currentTarget.value.replace(/\D/g, "").slice(0, 6))}
                inputMode="numeric"
                autoComplete="one-time-code"
                error={otpError}
                w={220}
                styles={{ input: { textAlign: "center", fontFamily: "var(--mantine-font-family-monospace)", fontSize: 22, letterSpacing: "0.3em" } }}
              />
              <Button type="submit" loading={verify.isPending} disabled={otp.length !== 6}>
                {t("tfa.confirm")}
              </Button>
            </Stack>
          </form>
        )}
        {step === 3 && (
          <Stack>
            <Title order={2} size="h3" c="green">
              {t("tfa.done_title")}
            </Title>
            <Text size="sm">{t("tfa.done_intro")}</Text>
            <BackupCodes codes={codes} />
            <Group>
              <Button component={Link} to="/settings">
                {t("tfa.finish")}
              </Button>
            </Group>
          </Stack>
        )}
        {step === -1 && (
          <Stack>
            <Alert color="red" variant="light" title={t("tfa.error_title")} role="alert">
              {failure}
            </Alert>
            <Group>
              <Button
                onClick={() => {
                  setOtp("");
                  setFailure("");
                  setStep(0);
                }}
              >
                {t("tfa.restart")}
              </Button>
            </Group>
          </Stack>
        )}
      </Paper>
    </Stack>
  );
}
