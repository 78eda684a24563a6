import { Button, type ButtonProps, Group, Stack, Text } from "@mantine/core";
import { type ReactNode, useState } from "react";
import { Dialog } from "../../lib/Dialog.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import "./texts.ts";

/** A button that asks first: a dialog with the question, Cancel and the action. */
export function ConfirmButton({
  children,
  title,
  body,
  confirm,
  onConfirm,
  loading,
  color = "red",
  ...button
}: {
  children: ReactNode;
  title: string;
  body?: ReactNode;
  confirm: string;
  onConfirm: () => unknown;
  loading?: boolean;
} & Omit<ButtonProps, "children">) {
  const { t } = useTranslation();
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button color={color} {...button} onClick={() => setOpened(true)}>
        {children}
      </Button>
      <Dialog opened={opened} onClose={() => setOpened(false)} title={title} centered>
        <Stack>
          {body && <Text size="sm">{body}</Text>}
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpened(false)}>
              {t("admin_ui.cancel")}
            </Button>
            <Button
              color={color}
              loading={loading}
              onClick={async () => {
                await onConfirm();
                setOpened(false);
              }}
            >
              {confirm}
            </Button>
          </Group>
        </Stack>
      </Dialog>
    </>
  );
}
