import { Alert, Button, Group, NumberInput, Select, SimpleGrid, Stack, Textarea, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { errorText, fieldErrors } from "../auth/errors.ts";
import { registeredCategoryTypes } from "../challenges/registry.tsx";
import type { CategoryView } from "../challenges/types.ts";
import { MarkdownField, parseJsonObject } from "./MarkdownField.tsx";

/**
 * The category form, for /campaign/new and edit mode's 'Edit details'. The name is required
 * ('challenge.no_name') and the type must be a registered category type ('challenge.invalid_cat').
 */
export function CategoryForm({ category, onSaved, onCancel }: { category?: CategoryView; onSaved(category: CategoryView): void; onCancel?(): void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const types = registeredCategoryTypes();
  const { category_slug: initialSlug, ...otherMetadata } = category?.metadata ?? {};
  const [name, setName] = useState(category?.name ?? "");
  const [type, setType] = useState<string | null>(category?.contained_type ?? types[0] ?? "jeopardy");
  const [description, setDescription] = useState(category?.description ?? "");
  const [slug, setSlug] = useState(typeof initialSlug === "string" ? initialSlug : "");
  const [order, setOrder] = useState<number>(category?.display_order ?? 0);
  const [metadata, setMetadata] = useState(Object.keys(otherMetadata).length > 0 ? JSON.stringify(otherMetadata, null, 2) : "");
  const [errors, setErrors] = useState<Record<string, string>>({});

  const onDone = {
    onSuccess: async (saved: CategoryView) => {
      await queryClient.invalidateQueries({ queryKey: trpc.challenges.categories.queryKey() });
      notifications.show({ color: "green", message: category ? t("editor.saved") : t("editor.category_created") });
      onSaved(saved);
    },
    onError: (error: unknown) => setErrors({ ...fieldErrors(error), form: errorText(error) }),
  };
  const create = useMutation(trpc.challenges.createCategory.mutationOptions(onDone));
  const update = useMutation(trpc.challenges.updateCategory.mutationOptions(onDone));

  function submit(event: React.FormEvent) {
    event.preventDefault();
    const found: Record<string, string> = {};
    if (name.trim() === "") found.name = t("challenge.no_name");
    if (!type || !types.includes(type)) found.contained_type = t("challenge.invalid_cat", { types: types.join(", ") });
    const extra = parseJsonObject(metadata);
    if (!extra) found.metadata = t("editor.metadata_invalid");
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const body = {
      name: name.trim(),
      contained_type: type!,
      description,
      display_order: order,
      metadata: { ...extra, ...(slug.trim() !== "" && { category_slug: slug.trim() }) },
    };
    if (category) update.mutate({ id: category.id, patch: body });
    else create.mutate(body);
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <TextInput label={t("editor.name")} required value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.name} maxLength={255} data-autofocus />
        <Select
          label={t("editor.type")}
          required
          data={types}
          value={type}
          onChange={setType}
          error={errors.contained_type}
          allowDeselect={false}
          comboboxProps={{ withinPortal: true }}
        />
        <MarkdownField label={t("editor.description")} value={description} onChange={setDescription} error={errors.description} minRows={4} />
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <TextInput label={t("editor.slug")} description={t("editor.slug_help")} value={slug} onChange={(e) => setSlug(e.currentTarget.value)} error={errors["metadata.category_slug"]} maxLength={100} />
          <NumberInput label={t("editor.display_order")} value={order} onChange={(v) => setOrder(typeof v === "number" ? v : Number(v) || 0)} allowDecimal={false} error={errors.display_order} />
        </SimpleGrid>
        <Textarea label={t("editor.metadata")} value={metadata} onChange={(e) => setMetadata(e.currentTarget.value)} error={errors.metadata} autosize minRows={2} styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }} />
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
