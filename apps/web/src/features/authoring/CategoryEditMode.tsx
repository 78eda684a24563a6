import { Alert, Button, Card, Group, Stack, Switch, Text, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { Dialog } from "../../lib/Dialog.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { errorText } from "../auth/errors.ts";
import type { CategoryView } from "../challenges/types.ts";
// With the staff bar rather than on its own: a dialog's focus trap places focus when the dialog
// opens, so the form must be there by then for its name field to take focus.
import { CategoryForm } from "./CategoryForm.tsx";
import "./texts.ts";

/**
 * Staff controls above a category: an Edit button, and in edit mode (#edit) edit details, stop
 * editing, show or hide locked challenges, a new challenge and removal.
 */
export function CategoryStaffBar({ category, editing, showLocked, onShowLocked }: { category: CategoryView; editing: boolean; showLocked: boolean; onShowLocked(value: boolean): void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [details, setDetails] = useState(false);
  const [removing, setRemoving] = useState(false);
  const remove = useMutation(
    trpc.challenges.deleteCategory.mutationOptions({
      onSuccess: async () => {
        setRemoving(false);
        await queryClient.invalidateQueries({ queryKey: trpc.challenges.categories.queryKey() });
        await navigate({ to: "/campaign" });
      },
      onError: (error) => {
        setRemoving(false);
        notifications.show({ color: "red", title: t("editor.category_remove_failed"), message: errorText(error) });
      },
    }),
  );
  const path = `/campaign/${category.slug}`;
  if (!editing) {
    return (
      <Group justify="flex-end">
        <Button component={Link} to={path} hash="edit" variant="light" data-testid="edit-category">
          {t("editor.edit")}
        </Button>
      </Group>
    );
  }
  return (
    <Card withBorder padding="sm" data-testid="category-edit-bar">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {category.contained_type === "campaign" ? t("editor.editing_banner") : t("editor.editing_banner_jeopardy")}
        </Text>
        <Group gap="sm" wrap="wrap">
          <Button variant="light" onClick={() => setDetails(true)}>
            {t("editor.edit_details")}
          </Button>
          <Button component={Link} to={`${path}/new`} variant="light">
            {t("editor.new_challenge")}
          </Button>
          <Button component={Link} to={path} variant="default">
            {t("editor.stop_editing")}
          </Button>
          <Switch label={t("editor.show_locked")} checked={showLocked} onChange={(e) => onShowLocked(e.currentTarget.checked)} />
          <Button color="red" variant="subtle" ml="auto" onClick={() => setRemoving(true)}>
            {t("editor.remove_category")}
          </Button>
        </Group>
      </Stack>
      <Dialog opened={details} onClose={() => setDetails(false)} title={t("editor.edit_category")} size="lg">
        <CategoryForm
          category={category}
          onCancel={() => setDetails(false)}
          onSaved={(saved) => {
            setDetails(false);
            if (saved.slug !== category.slug) void navigate({ to: `/campaign/${saved.slug}`, hash: "edit" });
          }}
        />
      </Dialog>
      <Dialog opened={removing} onClose={() => setRemoving(false)} title={t("editor.remove_category")}>
        <Stack>
          <Text>{t("editor.remove_category_confirm", { name: category.name })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRemoving(false)}>
              {t("editor.cancel")}
            </Button>
            <Button color="red" loading={remove.isPending} onClick={() => remove.mutate({ id: category.id })}>
              {t("editor.remove")}
            </Button>
          </Group>
        </Stack>
      </Dialog>
    </Card>
  );
}

/** /campaign/new: staff create a category and land on it in edit mode. */
export function NewCategoryPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { me } = useAppData();
  if (!me?.isStaff) {
    return (
      <Alert color="red" maw={720} mx="auto">
        {t("errors.permission_denied")}
      </Alert>
    );
  }
  return (
    <Stack maw={760} mx="auto" gap="lg">
      <Stack gap={4}>
        <Title order={1}>{t("editor.new_category")}</Title>
        <Text c="dimmed">{t("editor.new_category_intro")}</Text>
      </Stack>
      <Card withBorder padding="lg">
        <CategoryForm onSaved={(saved) => void navigate({ to: `/campaign/${saved.slug}`, hash: "edit" })} onCancel={() => void navigate({ to: "/campaign" })} />
      </Card>
    </Stack>
  );
}
