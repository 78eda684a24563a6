import { Stack, Tabs, Text, Textarea } from "@mantine/core";
import { useId } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { Markdown } from "../../lib/Markdown.tsx";
import "./texts.ts";

/** A markdown text area with a Preview tab rendering exactly what players will see. */
export function MarkdownField({ label, value, onChange, error, description, minRows = 6, testId }: { label: string; value: string; onChange(value: string): void; error?: string; description?: string; minRows?: number; testId?: string }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Stack gap={4}>
      <Text component="label" htmlFor={id} size="sm" fw={500}>
        {label}
      </Text>
      <Tabs defaultValue="write" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="write">{t("editor.write")}</Tabs.Tab>
          <Tabs.Tab value="preview">{t("editor.preview")}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="write" pt="xs">
          <Textarea id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)} autosize minRows={minRows} maxRows={24} error={error} description={description} data-testid={testId} styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }} />
        </Tabs.Panel>
        <Tabs.Panel value="preview" pt="xs">
          <div style={{ border: "1px solid var(--mantine-color-default-border)", borderRadius: "var(--mantine-radius-md)", padding: "var(--mantine-spacing-sm)", minHeight: 80 }}>
            {value.trim() === "" ? <Text c="dimmed" size="sm">{t("editor.nothing_to_preview")}</Text> : <Markdown>{value}</Markdown>}
          </div>
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** JSON object text for an editor field: the parsed object, or null when it is not an object. */
export function parseJsonObject(text: string): Record<string, unknown> | null {
  if (text.trim() === "") return {};
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
