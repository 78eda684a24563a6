import { Box, Group, Text } from "@mantine/core";
import type { PasswordStrength as Strength } from "@flagship/shared/password";
import { useEffect, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";

type Checker = (password: string, inputs?: string[]) => Strength;
let checker: Promise<Checker> | undefined;

/** zxcvbn is large: it is fetched the first time a password field needs it. */
export function loadChecker(): Promise<Checker> {
  checker ??= import("@flagship/shared/password").then((m) => m.passwordStrength);
  return checker;
}

/** The strength of `password` (null until the checker has loaded). */
export function usePasswordStrength(password: string, inputs: string[] = []): Strength | null {
  const [strength, setStrength] = useState<Strength | null>(null);
  const key = inputs.join("\u0000");
  useEffect(() => {
    let live = true;
    void loadChecker().then((check) => {
      if (live) setStrength(check(password, key ? key.split("\u0000") : []));
    });
    return () => {
      live = false;
    };
  }, [password, key]);
  return strength;
}

const COLORS = ["red", "orange", "yellow", "teal", "green"] as const;

/** The 5-part bar: one segment per zxcvbn score step, with the checker's advice under it. */
export function PasswordStrengthBar({ strength, show }: { strength: Strength | null; show: boolean }) {
  const { t } = useTranslation();
  const labels = t("account.strength_labels", { returnObjects: true }) as string[];
  const score = show && strength ? strength.score : -1;
  const color = score >= 0 ? COLORS[score as 0 | 1 | 2 | 3 | 4] : "gray";
  return (
    <Box data-testid="password-strength" data-score={score} aria-live="polite">
      <Group gap={4} grow mt={6} aria-hidden>
        {[0, 1, 2, 3, 4].map((i) => (
          <Box
            key={i}
            h={6}
            style={{
              borderRadius: 3,
              transition: "background-color 150ms ease",
              backgroundColor: i <= score ? `var(--mantine-color-${color}-filled)` : "var(--mantine-color-default-border)",
            }}
          />
        ))}
      </Group>
      {show && strength && (
        <Text size="xs" c="dimmed" mt={4}>
          {t("account.strength")}: {labels[strength.score]}
          {strength.feedback && !strength.strong ? ` - ${strength.feedback}` : ""}
        </Text>
      )}
    </Box>
  );
}
