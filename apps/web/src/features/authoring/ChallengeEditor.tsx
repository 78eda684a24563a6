import { CAMPAIGN_COLUMNS, DIFFICULTIES, difficultyLabel, FREE_TEXT_CHALLENGE_TYPES, isDifficulty, POINTS_TYPES, unlockError } from "@flagship/shared";
import { Accordion, Alert, Button, Card, Group, NumberInput, Paper, SimpleGrid, Stack, Switch, TagsInput, Text, Textarea, TextInput, Title } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useQueryClient } from "@tanstack/react-query";
import { Link, useNavigate } from "@tanstack/react-router";
import { useState } from "react";
import { Dialog } from "../../lib/Dialog.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { EventTimeField } from "../../lib/EventTimeField.tsx";
import { useLeaveGuard } from "../../lib/leave-guard.tsx";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { errorText, fieldErrors } from "../auth/errors.ts";
import { editorRenderer, registeredChallengeTypes } from "../challenges/registry.tsx";
import { MissingRenderer } from "../../shell/MissingRenderer.tsx";
import { type CategoryView, type ChallengeView, isFull } from "../challenges/types.ts";
import { ChoiceSelect, choicesOf } from "./choices.tsx";
import { type ChallengeDraft, draftFrom, fieldsOf, patchJsonText } from "./draft.ts";
import { flagTypes } from "../../plugins/extensions.tsx";
import { TeamFlagLookup } from "../sharing/TeamFlagLookup.tsx";
import { FlagFields } from "./FlagFields.tsx";
import { FilesEditor, HintsEditor } from "./HintsFilesEditors.tsx";
import { MarkdownField, parseJsonObject } from "./MarkdownField.tsx";
import { UnlockEditor } from "./UnlockEditor.tsx";
import "./texts.ts";

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

const whole = (value: unknown): value is number => typeof value === "number" && Number.isInteger(value) && value >= 0;
const numberOrUndefined = (value: string | number) => (typeof value === "number" ? value : undefined);

function keyOf(challenge: { slug: string; id: number }) {
  return challenge.slug || String(challenge.id);
}

/**
 * The challenge editor (/campaign/{tab}/{chal}#edit and /campaign/{tab}/new): every field of the
 * Challenge entity, hints, files and the unlock requirements, as labelled fields; the stored JSON
 * is under Advanced, edited by the same state as the fields. The save bar stays in view and says
 * whether there are unsaved changes. Saving an existing challenge is optimistic: the listing shows
 * the new version at once and goes back to the previous one if the call fails.
 */
export function ChallengeEditor({ category, challenge, prefill }: { category: CategoryView; challenge?: ChallengeView; prefill?: ChallengeDraft | null }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [draft, setDraft] = useState<ChallengeDraft>(() => (challenge ? draftFrom(challenge) : (prefill ?? draftFrom({}))));
  // The draft as last saved (or as it started): the save bar compares against it.
  const [savedDraft, setSavedDraft] = useState(() => JSON.stringify(draft));
  const dirty = JSON.stringify(draft) !== savedDraft;
  const [advanced, setAdvanced] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [removing, setRemoving] = useState(false);
  const set = <K extends keyof ChallengeDraft>(key: K, value: ChallengeDraft[K]) => {
    setDraft((d) => ({ ...d, [key]: value }));
    // A field's error goes once the field is edited.
    setErrors((e) => (key in e ? Object.fromEntries(Object.entries(e).filter(([k]) => k !== key)) : e));
  };
  const metadata = parseJsonObject(draft.challenge_metadata);
  const setMetadata = (patch: Record<string, unknown>) => set("challenge_metadata", patchJsonText(draft.challenge_metadata, patch));
  const flagMetadata = parseJsonObject(draft.flag_metadata);
  const setFlagMetadata = (patch: Record<string, unknown>) => set("flag_metadata", patchJsonText(draft.flag_metadata, patch));
  // Leaving the editor (a link, Stop editing, the back button, closing the tab) with unsaved changes asks first.
  const leaveGuard = useLeaveGuard(dirty);
  const listKey = trpc.challenges.categories.queryKey();
  const allCategories = queryClient.getQueryData(listKey) ?? [];
  const unlockOptions = allCategories.flatMap((c) => c.challenges.filter(isFull).filter((ch) => ch.id !== challenge?.id).map((ch) => ({ id: ch.id, name: ch.name, category: c.name })));
  const types = registeredChallengeTypes();
  const fromPoints = difficultyLabel(draft.score);
  const difficultyChoices = choicesOf("difficulty", ["auto", ...DIFFICULTIES]).map((choice) =>
    choice.value !== "auto" ? choice : { ...choice, description: fromPoints ? t("editor.choices.difficulty.auto_help", { label: fromPoints }) : t("editor.choices.difficulty.auto_none_help") },
  );
  // An error that only the Advanced panel shows opens it; the flag's shows beside the flag too,
  // unless its JSON is broken and the flag fields are gone.
  const flagFieldsShown = Boolean(flagMetadata) && flagTypes.get(draft.flag_type) !== undefined;
  const opensAdvanced = (found: Record<string, string>) => "challenge_metadata" in found || "unlock_requirements" in found || ("flag_metadata" in found && !flagMetadata);
  const decayCurve = flagMetadata?.decay_function === "linear" || flagMetadata?.decay_function === "logarithmic" ? flagMetadata.decay_function : "geometric";
  const TypeEditor = editorRenderer(draft.challenge_type);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    const { fields, errors: found } = fieldsOf(draft);
    setErrors(found);
    setFormError(null);
    if (Object.keys(found).length > 0) {
      if (opensAdvanced(found)) setAdvanced("advanced");
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
        setSavedDraft(JSON.stringify(draft));
        // The toast follows the navigation: once it shows, the page it belongs to is in place.
        leaveGuard.release();
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
      // The editor goes on from the challenge as stored: new hints and files now have their ids,
      // so a second save updates them rather than adding them again.
      const stored = queryClient.getQueryData(listKey)?.flatMap((c) => c.challenges).find((ch) => ch.id === challenge.id);
      const next = stored && isFull(stored) ? draftFrom(stored) : draft;
      setDraft(next);
      setSavedDraft(JSON.stringify(next));
      // Back to the editor at the challenge's address, which a new name changes; otherwise the
      // editor is where we are, and a visitor who already left (Stop editing) is not pulled back.
      if (keyOf(updated) !== keyOf(challenge)) {
        leaveGuard.release();
        await navigate({ to: `/campaign/${category.slug}/${keyOf(updated)}`, hash: "edit" });
      }
      notifications.show({ color: "green", message: t("editor.challenge_saved") });
    } catch (error) {
      queryClient.setQueryData(listKey, previous);
      void queryClient.invalidateQueries({ queryKey: listKey });
      const found = fieldErrors(error);
      if (opensAdvanced(found)) setAdvanced("advanced");
      setErrors(found);
      // A message the form shows beside its field is not repeated above the save bar.
      const besideFields = Object.keys(found).length > 0 && Object.keys(found).every((key) => key.split(".")[0]! in draft);
      setFormError(`${t("editor.challenge_save_failed")} ${besideFields ? t("editor.fix_errors") : errorText(error)}`);
    } finally {
      setSaving(false);
    }
  }

  async function syncHints(current: ChallengeView, next: ChallengeDraft) {
    const kept = new Set(next.hints.map((h) => h.id).filter((id) => id !== undefined));
    for (const hint of current.hints) if (!kept.has(hint.id)) await client.hints.delete.mutate({ id: hint.id });
    for (const hint of next.hints) {
      // Only hints still there can be required.
      const requirements = (hint.requirements ?? []).filter((id) => kept.has(id));
      const body = { name: hint.name, penalty: hint.penalty, text: hint.text, requirements };
      if (hint.id === undefined) await client.hints.create.mutate({ challenge: current.id, ...body });
      else {
        const before = current.hints.find((h) => h.id === hint.id);
        const sameRequirements = before && [...before.requirements].sort().join() === [...requirements].sort().join();
        if (!before || before.name !== hint.name || before.penalty !== hint.penalty || before.text !== hint.text || !sameRequirements) await client.hints.update.mutate({ id: hint.id, patch: body });
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
      leaveGuard.release();
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
  const monospace = { input: { fontFamily: "var(--mantine-font-family-monospace)" } };
  return (
    <form onSubmit={(e) => void save(e)} noValidate aria-label={title}>
      {leaveGuard.prompt}
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
          <TextInput
            label={t("editor.slug")}
            description={t("editor.challenge_slug_help")}
            value={typeof metadata?.challenge_slug === "string" ? metadata.challenge_slug : ""}
            onChange={(e) => setMetadata({ challenge_slug: e.currentTarget.value === "" ? undefined : e.currentTarget.value })}
            disabled={!metadata}
            maxLength={100}
          />
          <ChoiceSelect label={t("editor.challenge_type")} choices={choicesOf("challenge_type", types)} value={draft.challenge_type} onChange={(v) => set("challenge_type", v)} error={errors.challenge_type} />
          {TypeEditor ? (
            <TypeEditor draft={draft} onChange={(patch) => setDraft((d) => ({ ...d, ...patch }))} />
          ) : (
            <MissingRenderer kind="editor" type={draft.challenge_type} />
          )}
        </Section>

        <Section title={t("editor.flag_section")}>
          <FlagFields flagType={draft.flag_type} metadata={draft.flag_metadata} onFlagType={(v) => set("flag_type", v)} onMetadata={(v) => set("flag_metadata", v)} error={errors.flag_metadata ?? errors.flag_type} />
          {challenge && draft.flag_type === "dynamic" && <TeamFlagLookup challengeId={challenge.id} />}
          {!FREE_TEXT_CHALLENGE_TYPES.has(draft.challenge_type) && draft.challenge_type !== "map" && (
            <TextInput
              label={t("editor.answer_format")}
              description={t("editor.answer_format_help")}
              value={typeof metadata?.flag_regex === "string" ? metadata.flag_regex : ""}
              onChange={(e) => setMetadata({ flag_regex: e.currentTarget.value === "" ? undefined : e.currentTarget.value })}
              disabled={!metadata}
              styles={monospace}
            />
          )}
          {!FREE_TEXT_CHALLENGE_TYPES.has(draft.challenge_type) && draft.challenge_type !== "map" && (
            <TextInput
              label={t("editor.partial_format")}
              description={t("editor.partial_format_help")}
              value={typeof metadata?.flag_partial_regex === "string" ? metadata.flag_partial_regex : ""}
              onChange={(e) => setMetadata({ flag_partial_regex: e.currentTarget.value === "" ? undefined : e.currentTarget.value })}
              disabled={!metadata}
              styles={monospace}
              data-testid="partial-format"
            />
          )}
          {draft.challenge_type === "map" && (
            <TextInput
              label={t("editor.tile_url")}
              description={t("editor.tile_url_help")}
              value={typeof metadata?.tile_url === "string" ? metadata.tile_url : ""}
              onChange={(e) => setMetadata({ tile_url: e.currentTarget.value === "" ? undefined : e.currentTarget.value })}
              disabled={!metadata}
              styles={monospace}
              data-testid="tile-url"
            />
          )}
          <TextInput
            label={t("editor.cserv_name")}
            description={t("editor.cserv_name_help")}
            value={typeof metadata?.cserv_name === "string" ? metadata.cserv_name : ""}
            onChange={(e) => setMetadata({ cserv_name: e.currentTarget.value === "" ? undefined : e.currentTarget.value })}
            disabled={!metadata}
            data-testid="cserv-name"
          />
        </Section>

        <Section title={t("editor.scoring")}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <NumberInput label={t("editor.score")} required min={0} allowDecimal={false} value={draft.score} onChange={(v) => set("score", typeof v === "number" ? v : Number(v) || 0)} error={errors.score} />
            <ChoiceSelect label={t("editor.points_type")} choices={choicesOf("points_type", POINTS_TYPES)} value={draft.points_type} onChange={(v) => set("points_type", v)} error={errors.points_type} />
            <ChoiceSelect
              label={t("editor.difficulty")}
              choices={difficultyChoices}
              value={isDifficulty(metadata?.difficulty) ? metadata.difficulty : "auto"}
              onChange={(v) => setMetadata({ difficulty: v === "auto" ? undefined : v })}
              testId="difficulty-select"
            />
          </SimpleGrid>
          {draft.points_type === "decay" && (
            <SimpleGrid cols={{ base: 1, sm: 3 }}>
              <NumberInput
                label={t("editor.decay_minimum")}
                description={t("editor.decay_minimum_help")}
                min={0}
                allowDecimal={false}
                placeholder="100"
                value={whole(flagMetadata?.min_points) ? flagMetadata.min_points : ""}
                onChange={(v) => setFlagMetadata({ min_points: numberOrUndefined(v) })}
                disabled={!flagMetadata}
              />
              <ChoiceSelect
                label={t("editor.decay_curve")}
                choices={choicesOf("decay_curve", ["geometric", "linear", "logarithmic"])}
                value={decayCurve}
                onChange={(v) => setFlagMetadata(v === "geometric" ? { decay_function: undefined, decay: undefined } : { decay_function: v, decay_constant: undefined })}
              />
              {decayCurve === "geometric" ? (
                <NumberInput
                  label={t("editor.decay_constant")}
                  description={t("editor.decay_constant_help")}
                  min={0.01}
                  max={1}
                  step={0.01}
                  decimalScale={4}
                  placeholder="0.99"
                  value={typeof flagMetadata?.decay_constant === "number" ? flagMetadata.decay_constant : ""}
                  onChange={(v) => setFlagMetadata({ decay_constant: numberOrUndefined(v) })}
                  disabled={!flagMetadata}
                />
              ) : (
                <NumberInput
                  label={t(`editor.decay_step_${decayCurve}`)}
                  min={0}
                  allowDecimal={false}
                  value={whole(flagMetadata?.decay) ? flagMetadata.decay : ""}
                  onChange={(v) => setFlagMetadata({ decay: numberOrUndefined(v) })}
                  disabled={!flagMetadata}
                />
              )}
            </SimpleGrid>
          )}
          <NumberInput label={t("editor.attempt_limit")} description={t("editor.attempt_limit_help")} min={0} allowDecimal={false} value={draft.attempt_limit} onChange={(v) => set("attempt_limit", typeof v === "number" ? v : Number(v) || 0)} error={errors.attempt_limit} maw={{ sm: "calc(33.3% - var(--mantine-spacing-md))" }} />
          <MarkdownField label={t("editor.post_score_explanation")} description={t("editor.post_score_help")} value={draft.post_score_explanation} onChange={(v) => set("post_score_explanation", v)} error={errors.post_score_explanation} minRows={3} />
        </Section>

        <Section title={t("editor.placement")}>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <Switch label={t("editor.hidden")} description={t("editor.hidden_help")} checked={draft.hidden} onChange={(e) => set("hidden", e.currentTarget.checked)} />
            <Switch label={t("editor.maintenance")} description={t("editor.maintenance_help")} checked={draft.maintenance} onChange={(e) => set("maintenance", e.currentTarget.checked)} />
            <Switch label={t("editor.tiebreaker")} description={t("editor.tiebreaker_help")} checked={draft.tiebreaker} onChange={(e) => set("tiebreaker", e.currentTarget.checked)} />
          </SimpleGrid>
          <div style={{ maxWidth: "24rem" }}>
            <EventTimeField label={t("editor.scheduled_at")} description={t("editor.scheduled_at_help")} value={draft.scheduled_at} onChange={(seconds) => set("scheduled_at", seconds)} error={errors.scheduled_at} data-testid="challenge-scheduled-at" />
          </div>
          {category.contained_type === "campaign" && (
            <Stack gap={4} component="fieldset" style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
              <Text component="legend" size="sm" fw={500} p={0}>
                {t("editor.tile_position")}
              </Text>
              <Text size="xs" c="dimmed">
                {t("editor.tile_position_help")}
              </Text>
              <SimpleGrid cols={2} maw={{ sm: 420 }}>
                <NumberInput
                  label={t("editor.tile_column", { columns: CAMPAIGN_COLUMNS })}
                  min={1}
                  max={CAMPAIGN_COLUMNS}
                  allowDecimal={false}
                  value={whole(metadata?.x) ? metadata.x + 1 : ""}
                  onChange={(v) => setMetadata({ x: typeof v === "number" ? Math.min(Math.max(v, 1), CAMPAIGN_COLUMNS) - 1 : undefined })}
                  disabled={!metadata}
                />
                <NumberInput
                  label={t("editor.tile_row")}
                  min={1}
                  allowDecimal={false}
                  value={whole(metadata?.y) ? metadata.y + 1 : ""}
                  onChange={(v) => setMetadata({ y: typeof v === "number" ? Math.max(v, 1) - 1 : undefined })}
                  disabled={!metadata}
                />
              </SimpleGrid>
            </Stack>
          )}
          {!metadata && (
            <Alert color="red" role="alert">
              {t("editor.metadata_json_broken")}
            </Alert>
          )}
          <UnlockEditor value={draft.unlock_requirements} onChange={(v) => set("unlock_requirements", v)} options={unlockOptions} error={errors.unlock_requirements} />
        </Section>

        <Section title={t("editor.hints")}>
          <HintsEditor hints={draft.hints} onChange={(hints) => set("hints", hints)} errors={errors} />
        </Section>

        <Section title={t("editor.files")}>
          <FilesEditor files={draft.files} onChange={(files) => set("files", files)} onError={(message) => notifications.show({ color: "red", message })} />
        </Section>

        <Accordion variant="contained" radius="md" value={advanced} onChange={setAdvanced} order={2}>
          <Accordion.Item value="advanced">
            <Accordion.Control>{t("editor.advanced")}</Accordion.Control>
            <Accordion.Panel>
              <Stack gap="md">
                <Text size="sm" c="dimmed">
                  {t("editor.advanced_help")}
                </Text>
                <Textarea label={t("editor.challenge_metadata")} description={t("editor.challenge_metadata_help")} value={draft.challenge_metadata} onChange={(e) => set("challenge_metadata", e.currentTarget.value)} error={errors.challenge_metadata} autosize minRows={2} styles={monospace} data-testid="challenge-metadata" />
                <Textarea label={t("editor.flag_metadata")} description={t("editor.flag_metadata_help")} value={draft.flag_metadata} onChange={(e) => set("flag_metadata", e.currentTarget.value)} error={flagFieldsShown ? undefined : errors.flag_metadata} autosize minRows={2} styles={monospace} data-testid="flag-metadata" />
                <TextInput
                  label={t("editor.unlock_expression")}
                  description={t("editor.unlock_expression_help")}
                  value={draft.unlock_requirements}
                  onChange={(e) => set("unlock_requirements", e.currentTarget.value)}
                  error={errors.unlock_requirements ?? unlockError(draft.unlock_requirements.trim()) ?? undefined}
                  styles={monospace}
                  data-testid="unlock-input"
                />
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        </Accordion>

        {challenge && (
          <Group justify="flex-end">
            <Button color="red" variant="subtle" onClick={() => setRemoving(true)}>
              {t("editor.remove_challenge")}
            </Button>
          </Group>
        )}
        {formError && (
          <Alert color="red" role="alert" data-testid="editor-error">
            {formError}
          </Alert>
        )}
        <Paper withBorder shadow="md" radius="md" p="sm" data-testid="save-bar" style={{ position: "sticky", bottom: "var(--mantine-spacing-sm)", zIndex: 3 }}>
          <Group justify="space-between" wrap="nowrap" gap="sm">
            <Group gap="xs" wrap="nowrap">
              <span aria-hidden style={{ width: 10, height: 10, borderRadius: "50%", flexShrink: 0, background: dirty ? "var(--mantine-color-orange-filled)" : "var(--mantine-color-green-filled)" }} />
              <Text size="sm" role="status" data-testid="save-state">
                {dirty ? t("editor.unsaved") : challenge ? t("editor.no_changes") : t("editor.not_created")}
              </Text>
            </Group>
            <Button type="submit" loading={saving} style={{ flexShrink: 0 }}>
              {challenge ? t("editor.save_challenge") : t("editor.create_challenge")}
            </Button>
          </Group>
        </Paper>
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
