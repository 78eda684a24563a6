import { Accordion, Alert, Button, Group, NumberInput, SimpleGrid, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { errorText, fieldErrors } from "../auth/errors.ts";
import { registeredCategoryTypes } from "../challenges/registry.tsx";
import type { CategoryView } from "../challenges/types.ts";
import { ChoiceSelect, choicesOf } from "./choices.tsx";
import { patchJsonText } from "./draft.ts";
import { MarkdownField, parseJsonObject } from "./MarkdownField.tsx";
import "./texts.ts";

/**
 * The category form, for /campaign/new and edit mode's 'Edit details'. The name is required
 * ('challenge.no_name') and the type must be a registered category type ('challenge.invalid_cat'),
 * offered as labelled layouts. The stored metadata is under Advanced, in step with the slug field.
 */
export function CategoryForm({ category, onSaved, onCancel }: { category?: CategoryView; onSaved(category: CategoryView): void; onCancel?(): void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const types = registeredCategoryTypes();

  const [name, setName] = useState(category?.name ?? "");
  const [type, setType] = useState<string>(category?.contained_type ?? types[0] ?? "jeopardy");
  const [description, setDescription] = useState(category?.description ?? "");
  const [order, setOrder] = useState<number>(category?.display_order ?? 0);
  const [metadata, setMetadata] = useState(patchJsonText("", category?.metadata ?? {}));
  const parsed = parseJsonObject(metadata);
  const slug = typeof parsed?.category_slug === "string" ? parsed.category_slug : "";
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [advanced, setAdvanced] = useState<string | null>(null);

  const onDone = {
    onSuccess: async (saved: CategoryView) => {
      await queryClient.invalidateQueries({ queryKey: trpc.challenges.categories.queryKey() });
      notifications.show({ color: "green", message: category ? t("editor.saved") : t("editor.category_created") });
      onSaved(saved);
    },
    onError: (error: unknown) => {
      const found = fieldErrors(error);
      if (found.metadata) setAdvanced("advanced");
      setErrors({ ...found, form: errorText(error) });
    },
  };
  const create = useMutation(trpc.challenges.createCategory.mutationOptions(onDone));
  const update = useMutation(trpc.challenges.updateCategory.mutationOptions(onDone));

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (name.trim() === "") found.name = t("challenge.no_name");
    if (!types.includes(type)) found.contained_type = t("challenge.invalid_cat", { types: types.join(", ") });
    if (!parsed) found.metadata = t("editor.metadata_invalid");
    setErrors(found);
    if (found.metadata) setAdvanced("advanced");
    if (Object.keys(found).length > 0) return;
    const body = {
      name: name.trim(),
      contained_type: type,
      description,
      display_order: order,
      metadata: parseJsonObject(patchJsonText(metadata, { category_slug: slug.trim() === "" ? undefined : slug.trim() })) ?? {},
    };
    if (category) update.mutate({ id: category.id, patch: body });
    else create.mutate(body);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput label={t("editor.name")} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} maxLength={255} data-autofocus />
        <ChoiceSelect label={t("editor.layout")} required choices={choicesOf("category_type", types)} value={type} onChange={setType} error={errors.contained_type} />
        <MarkdownField label={t("editor.description")} value={description} onChange={setDescription} error={errors.description} minRows={4} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput
            label={t("editor.slug")}
            description={t("editor.slug_help")}
            value={slug}
            onChange={(e) => setMetadata(patchJsonText(metadata, { category_slug: e.currentTarget.value === "" ? undefined : e.currentTarget.value }))}
            error={errors["metadata.category_slug"]}
            disabled={!parsed}
            maxLength={100}
          />
          <NumberInput label={t("editor.display_order")} value={order} onChange={(v) => setOrder(typeof v === "number" ? v : Number(v) || 0)} allowDecimal={false} error={errors.display_order} />
        </SimpleGrid>
        <Accordion variant="contained" radius="md" value={advanced} onChange={setAdvanced} order={2}>
          <Accordion.Item value="advanced">
            <Accordion.Control>{t("editor.advanced")}</Accordion.Control>
            <Accordion.Panel>
              <Stack gap="xs">
                <Text size="sm" c="dimmed">
                  {t("editor.advanced_help")}
                </Text>
                <Textarea
                  label={t("editor.metadata")}
                  description={t("editor.category_metadata_help")}
                  value={metadata}
                  onChange={(e) => setMetadata(e.currentTarget.value)}
                  error={errors.metadata}
                  autosize
                  minRows={2}
                  styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
                  data-testid="category-metadata"
                />
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        </Accordion>
        {errors.form && !Object.keys(errors).some((k) => k !== "form") && (
          <Alert color="red" role="alert">
            {errors.form}
          </Alert>
        )}
        <Group justify="flex-end">
          {onCancel && (
            <Button variant="default" onClick={onCancel}>
              {t("editor.cancel")}
            </Button>
          )}
          <Button type="submit" loading={create.isPending || update.isPending}>
            {category ? t("editor.save") : t("editor.create")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
