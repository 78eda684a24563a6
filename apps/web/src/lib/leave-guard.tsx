import { Button, Group, Stack, Text } from "@mantine/core";
import { useBlocker } from "@tanstack/react-router";
import { type ReactNode, useRef } from "react";
import { Dialog } from "./Dialog.tsx";
import { addTexts, useTranslation } from "./i18n.ts";

addTexts({
  leave_guard: {
    title: "Leave without saving?",
    body: "Your changes here are not saved yet. Leaving drops them.",
    stay: "Stay and keep editing",
    leave: "Leave without saving",
  },
});

/**
 * Asks before a form with unsaved changes is left: by a link, the back button or closing the tab
 * (the browser's own question then, the only one a page may put to a closing tab). Returns the
 * question to draw, and `release()`, which lets the next navigation through unasked (a save that
 * goes on to the saved thing's page, before the form knows it is clean).
 */
export function useLeaveGuard(dirty: boolean): { prompt: ReactNode; release(): void } {
  const { t } = useTranslation();
  // Read when a navigation starts, which can be before this render's `dirty` is drawn.
  const state = useRef({ dirty, released: false });
  state.current.dirty = dirty;
  const blocker = useBlocker({
    shouldBlockFn: () => {
      if (state.current.released) {
        state.current.released = false;
        return false;
      }
      return state.current.dirty;
    },
    enableBeforeUnload: () => state.current.dirty,
    withResolver: true,
  });
  const prompt = (
    <Dialog opened={blocker.status === "blocked"} onClose={() => blocker.reset?.()} title={t("leave_guard.title")} centered>
      <Stack>
        <Text size="sm">{t("leave_guard.body")}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
            {t("leave_guard.stay")}
          </Button>
          <Button color="red" onClick={() => blocker.proceed?.()}>
            {t("leave_guard.leave")}
          </Button>
        </Group>
      </Stack>
    </Dialog>
  );
  return {
    prompt,
    release: () => {
      state.current.released = true;
    },
  };
}
