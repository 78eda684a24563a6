import { Input, Paper, Tabs, Textarea, type TextareaProps } from "@mantine/core";
import { type ReactNode, useId } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { Markdown } from "../../lib/Markdown.tsx";
import "./texts.ts";

/**
 * A markdown text area with a Write / Preview switch; the preview renders as players will see it
 * (`renderPreview` for text that is more than markdown, such as the home page's placeholders).
 */
export function MarkdownField({ value, minRows = 8, renderPreview, ...props }: TextareaProps & { value: string; renderPreview?: (value: string) => ReactNode }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Tabs defaultValue="write" keepMounted={false} variant="outline">
      <Tabs.List aria-label={String(props.label ?? "")}>
        <Tabs.Tab value="write">{t("admin_ui.write")}</Tabs.Tab>
        <Tabs.Tab value="preview">{t("admin_ui.preview")}</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="write" pt="xs">
        <Textarea value={value} autosize minRows={minRows} maxRows={24} {...props} />
      </Tabs.Panel>
      <Tabs.Panel value="preview" pt="xs">
        <Input.Label htmlFor={id}>{props.label}</Input.Label>
        <Paper id={id} withBorder p="sm" mih={120} data-testid="markdown-preview">
          {renderPreview && value ? renderPreview(value) : <Markdown>{value || t("admin_ui.nothing_to_preview")}</Markdown>}
        </Paper>
      </Tabs.Panel>
    </Tabs>
  );
}
