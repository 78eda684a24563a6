import { CODE_LANGUAGES } from "@flagship/shared";
import { NumberInput, Select, SimpleGrid, Stack, Textarea } from "@mantine/core";
import { useTranslation } from "../../lib/i18n.ts";
import type { EditorRendererProps } from "../challenges/registry.tsx";
import { parseJsonObject } from "./MarkdownField.tsx";
import "./texts.ts";

/** The code challenge's own settings: its language and the code the editor starts with. */
export function CodeEditorFields({ draft, onChange }: EditorRendererProps) {
  const { t } = useTranslation();
  return (
    <Stack gap="sm">
      <Select label={t("editor.code_language")} data={[...CODE_LANGUAGES]} value={draft.code_language} onChange={(v) => v && onChange({ code_language: v })} allowDeselect={false} comboboxProps={{ withinPortal: true }} />
      <Textarea label={t("editor.code_default")} value={draft.code_default} onChange={(e) => onChange({ code_default: e.currentTarget.value })} autosize minRows={3} styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }} />
    </Stack>
  );
}

/** The map challenge's minimum zoom level (challenge_metadata.minimum_zoom_level). */
export function MapEditorFields({ draft, onChange }: EditorRendererProps) {
  const { t } = useTranslation();
  const metadata = parseJsonObject(draft.challenge_metadata);
  const zoom = typeof metadata?.minimum_zoom_level === "number" ? metadata.minimum_zoom_level : "";
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }}>
      <NumberInput
        label={t("editor.minimum_zoom")}
        min={0}
        max={20}
        allowDecimal={false}
        value={zoom}
        disabled={!metadata}
        onChange={(v) => onChange({ challenge_metadata: JSON.stringify({ ...metadata, minimum_zoom_level: typeof v === "number" ? v : undefined }, null, 2) })}
      />
    </SimpleGrid>
  );
}

/** Types whose players type a flag need no settings of their own. */
export function NoExtraFields() {
  return null;
}
