import { POINTS_TYPES } from "@flagship/shared";
import { Alert, Button, Card, Group, NumberInput, Select, SimpleGrid, Stack, Switch, TagsInput, Text, Textarea, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { Dialog } from "../../lib/Dialog.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { errorText, fieldErrors } from "../auth/errors.ts";
import { editorRenderer, registeredChallengeTypes } from "../challenges/registry.tsx";
import { MissingRenderer } from "../../shell/MissingRenderer.tsx";
import { type CategoryView, type ChallengeView, isFull } from "../challenges/types.ts";
import { type ChallengeDraft, draftFrom, fieldsOf } from "./draft.ts";
import { TeamFlagLookup } from "../sharing/TeamFlagLookup.tsx";
import { FlagFields } from "./FlagFields.tsx";
import { FilesEditor, HintsEditor } from "./HintsFilesEditors.tsx";
import { MarkdownField } from "./MarkdownField.tsx";
import { UnlockEditor } from "./UnlockEditor.tsx";

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card withBorder padding="lg" component="section" aria-label={title}>
      <Stack gap="md">
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Card>
  );
}

function keyOf(challenge: { slug: string; id: number }) {
  return challenge.slug || String(challenge.id);
}

/**
 * The challenge editor (/campaign/{tab}/{chal}#edit and /campaign/{tab}/new): every field of the
 * Challenge entity, hints, files and the unlock requirements. Saving an existing challenge is
 * optimistic: the listing shows the new version at once and goes back to the previous one if
 * the call fails.
 */
export function ChallengeEditor({ category, challenge, prefill }: { category: CategoryView; challenge?: ChallengeView; prefill?: ChallengeDraft | null }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<ChallengeDraft>(() => (challenge ? draftFrom(challenge) : (prefill ?? draftFrom({}))));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [removing, setRemoving] = useState(false);
  const set = <K extends keyof ChallengeDraft>(key: K, value: ChallengeDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    // A field's error goes once the field is edited.
    setErrors((e) => (key in e ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== key)) : e));
  };
  const listKey = trpc.challenges.categories.queryKey();
  const allCategories = queryClient.getQueryData(listKey) ?? [];
  const unlockOptions = allCategories.flatMap((c) => c.challenges.filter(isFull).filter((ch) => ch.id !== challenge?.id).map((ch) => ({ id: ch.id, name: ch.name })));
  const types = registeredChallengeTypes();
  const TypeEditor = editorRenderer(draft.challenge_type);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    const { fields, errors: found } = fieldsOf(draft);
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) {
      setFormError(t("editor.fix_errors"));
      return;
    }
    setSaving(true);
    const previous = queryClient.getQueryData(listKey);
    try {
      if (!challenge) {
        const created = await client.challenges.create.mutate({
          category: category.id,
          ...fields,
          hints: draft.hints.map(({ name, penalty, text }) => ({ name, penalty, text })),
          files: draft.files.map(({ name, url, size }) => ({ name, url, size })),
        });
        await queryClient.invalidateQueries({ queryKey: listKey });
        // The toast follows the navigation: once it shows, the page it belongs to is in place.
        await navigate({ to: `/campaign/${category.slug}/${keyOf(created)}` });
        notifications.show({ color: "green", message: t("editor.challenge_saved") });
        return;
      }
      // Optimistic: the listing shows the edited challenge while the calls run.
      queryClient.setQueryData(listKey, (old) =>
        old?.map((c) => (c.id !== category.id ? c : { ...c, challenges: c.challenges.map((ch) => (ch.id === challenge.id ? ({ ...ch, ...fields } as typeof ch) : ch)) })),
      );
      const updated = await client.challenges.update.mutate({ id: challenge.id, patch: fields });
      await syncHints(challenge, draft);
      await syncFiles(challenge, draft);
      await queryClient.invalidateQueries({ queryKey: listKey });
      // Back to the editor at the challenge's address, which a new name changes; otherwise the
      // editor is where we are, and a visitor who already left (Stop editing) is not pulled back.
      if (keyOf(updated) !== keyOf(challenge)) await navigate({ to: `/campaign/${category.slug}/${keyOf(updated)}`, hash: "edit" });
      notifications.show({ color: "green", message: t("editor.challenge_saved") });
    } catch (error) {
      queryClient.setQueryData(listKey, previous);
      void queryClient.invalidateQueries({ queryKey: listKey });
      setErrors(fieldErrors(error));
      setFormError(`${t("editor.challenge_save_failed")} ${errorText(error)}`);
    } finally {
      setSaving(false);
    }
  }

  async function syncHints(current: ChallengeView, next: ChallengeDraft) {
    const kept = new Set(next.hints.map((h) => h.id).filter((id) => id !== undefined));
    for (const hint of current.hints) if (!kept.has(hint.id)) await client.hints.delete.mutate({ id: hint.id });
    for (const hint of next.hints) {
      const body = { name: hint.name, penalty: hint.penalty, text: hint.text };
      if (hint.id === undefined) await client.hints.create.mutate({ challenge: current.id, ...body });
      else {
        const before = current.hints.find((h) => h.id === hint.id);
        if (!before || before.name !== hint.name || before.penalty !== hint.penalty || before.text !== hint.text) await client.hints.update.mutate({ id: hint.id, patch: body });
      }
    }
  }

  async function syncFiles(current: ChallengeView, next: ChallengeDraft) {
    const kept = new Set(next.files.map((f) => f.id).filter((id) => id !== undefined));
    for (const file of current.files) if (!kept.has(file.id)) await client.challenges.deleteFile.mutate({ id: file.id });
    for (const file of next.files) if (file.id === undefined) await client.challenges.createFile.mutate({ challenge: current.id, name: file.name, url: file.url, size: file.size });
  }

  async function remove() {
    if (!challenge) return;
    const previous = queryClient.getQueryData(listKey);
    queryClient.setQueryData(listKey, (old) => old?.map((c) => (c.id !== category.id ? c : { ...c, challenges: c.challenges.filter((ch) => ch.id !== challenge.id) })));
    try {
      await client.challenges.delete.mutate({ id: challenge.id });
      await navigate({ to: `/campaign/${category.slug}` });
      notifications.show({ color: "green", message: t("editor.challenge_removed") });
      void queryClient.invalidateQueries({ queryKey: listKey });
    } catch (error) {
      queryClient.setQueryData(listKey, previous);
      setRemoving(false);
      notifications.show({ color: "red", message: `${t("editor.challenge_remove_failed")} ${errorText(error)}` });
    }
  }

  const title = challenge ? t("editor.edit_challenge_title", { name: challenge.name }) : t("editor.new_challenge_title", { category: category.name });
  return (
    <form onSubmit={(e) => void save(e)} noValidate aria-label={title}>
      <Stack gap="lg">
        <Group justify="space-between" wrap="wrap">
          <Title order={1} size="h2" style={{ wordBreak: "break-word" }}>
            {title}
          </Title>
          {challenge && (
            <Button component={Link} to={`/campaign/${category.slug}/${keyOf(challenge)}`} variant="default">
              {t("editor.stop_editing")}
            </Button>
          )}
        </Group>

        <Section title={t("editor.details")}>
          <TextInput label={t("editor.name")} required value={draft.name} onChange={(e) => set("name", e.currentTarget.value)} error={errors.name} maxLength={255} />
          <MarkdownField label={t("editor.description")} value={draft.description} onChange={(v) => set("description", v)} error={errors.description} testId="description-input" />
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <TextInput label={t("editor.author")} value={draft.author} onChange={(e) => set("author", e.currentTarget.value)} error={errors.author} maxLength={255} />
            <TagsInput
              label={t("editor.tags")}
              description={t("editor.tags_help")}
              value={draft.tags.map((tag) => tag.text)}
              onChange={(texts) => set("tags", texts.map((text) => draft.tags.find((tag) => tag.text === text) ?? { type: "tag", text }))}
              error={errors.tags}
              comboboxProps={{ withinPortal: true }}
            />
          </SimpleGrid>
          <Select label={t("editor.challenge_type")} data={types.includes(draft.challenge_type) ? types : [...types, draft.challenge_type]} value={draft.challenge_type} onChange={(v) => v && set("challenge_type", v)} allowDeselect={false} error={errors.challenge_type} comboboxProps={{ withinPortal: true }} />
          {TypeEditor ? (
            <TypeEditor draft={draft} onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))} />
          ) : (
            <MissingRenderer kind="editor" type={draft.challenge_type} />
          )}
        </Section>

        <Section title={t("editor.flag_section")}>
          <FlagFields flagType={draft.flag_type} metadata={draft.flag_metadata} onFlagType={(v) => set("flag_type", v)} onMetadata={(v) => set("flag_metadata", v)} error={errors.flag_metadata ?? errors.flag_type} />
          {challenge && draft.flag_type === "dynamic" && <TeamFlagLookup challengeId={challenge.id} />}
        </Section>

        <Section title={t("editor.scoring")}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput label={t("editor.score")} required min={0} allowDecimal={false} value={draft.score} onChange={(v) => set("score", typeof v === "number" ? v : Number(v) || 0)} error={errors.score} />
            <Select label={t("editor.points_type")} data={[...POINTS_TYPES]} value={draft.points_type} onChange={(v) => v && set("points_type", v)} allowDeselect={false} error={errors.points_type} comboboxProps={{ withinPortal: true }} />
            <NumberInput label={t("editor.attempt_limit")} description={t("editor.attempt_limit_help")} min={0} allowDecimal={false} value={draft.attempt_limit} onChange={(v) => set("attempt_limit", typeof v === "number" ? v : Number(v) || 0)} error={errors.attempt_limit} />
          </SimpleGrid>
          <MarkdownField label={t("editor.post_score_explanation")} description={t("editor.post_score_help")} value={draft.post_score_explanation} onChange={(v) => set("post_score_explanation", v)} error={errors.post_score_explanation} minRows={3} />
        </Section>

        <Section title={t("editor.options")}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Switch label={t("editor.hidden")} description={t("editor.hidden_help")} checked={draft.hidden} onChange={(e) => set("hidden", e.currentTarget.checked)} />
            <Switch label={t("editor.maintenance")} description={t("editor.maintenance_help")} checked={draft.maintenance} onChange={(e) => set("maintenance", e.currentTarget.checked)} />
            <Switch label={t("editor.tiebreaker")} description={t("editor.tiebreaker_help")} checked={draft.tiebreaker} onChange={(e) => set("tiebreaker", e.currentTarget.checked)} />
          </SimpleGrid>
          <UnlockEditor value={draft.unlock_requirements} onChange={(v) => set("unlock_requirements", v)} options={unlockOptions} error={errors.unlock_requirements} />
          <Textarea label={t("editor.challenge_metadata")} description={t("editor.challenge_metadata_help")} value={draft.challenge_metadata} onChange={(e) => set("challenge_metadata", e.currentTarget.value)} error={errors.challenge_metadata} autosize minRows={2} styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }} />
        </Section>

        <Section title={t("editor.hints")}>
          <HintsEditor hints={draft.hints} onChange={(hints) => set("hints", hints)} errors={errors} />
        </Section>

        <Section title={t("editor.files")}>
          <FilesEditor files={draft.files} onChange={(files) => set("files", files)} onError={(message) => notifications.show({ color: "red", message })} />
        </Section>

        {formError && (
          <Alert color="red" role="alert" data-testid="editor-error">
            {formError}
          </Alert>
        )}
        <Group justify="space-between">
          {challenge ? (
            <Button color="red" variant="subtle" onClick={() => setRemoving(true)}>
              {t("editor.remove_challenge")}
            </Button>
          ) : (
            <span />
          )}
          <Button type="submit" loading={saving}>
            {challenge ? t("editor.save_challenge") : t("editor.create_challenge")}
          </Button>
        </Group>
      </Stack>
      <Dialog opened={removing} onClose={() => setRemoving(false)} title={t("editor.remove_challenge")}>
        <Stack>
          <Text>{t("editor.remove_challenge_confirm", { name: challenge?.name })}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRemoving(false)}>
              {t("editor.cancel")}
            </Button>
            <Button color="red" onClick={() => void remove()}>
              {t("editor.remove")}
            </Button>
          </Group>
        </Stack>
      </Dialog>
    </form>
  );
}
