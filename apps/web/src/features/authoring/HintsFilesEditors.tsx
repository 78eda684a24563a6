import { formatFileSize } from "@flagship/shared";
import { ActionIcon, Button, Card, FileButton, Group, MultiSelect, NumberInput, Stack, Text, Textarea, TextInput } from "@mantine/core";
import { useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { session } from "../../lib/session.ts";
import "./texts.ts";

export interface HintDraft {
  id?: number;
  name: string;
  penalty: number;
  text: string;
  /** Saved hints of the challenge a team must use before this one, by id. */
  requirements?: number[];
}

export interface FileDraft {
  id?: number;
  name: string;
  url: string;
  size: number;
}

/** The challenge's hints: name, penalty and text each, added and removed in place. */
export function HintsEditor({ hints, onChange, errors }: { hints: HintDraft[]; onChange(hints: HintDraft[]): void; errors: Record<string, string> }) {
  const { t } = useTranslation();
  const set = (index: number, patch: Partial<HintDraft>) => onChange(hints.map((h, i) => (i === index ? { ...h, ...patch } : h)));
  return (
    <Stack gap="sm">
      {hints.length === 0 && (
        <Text size="sm" c="dimmed">
          {t("editor.no_hints")}
        </Text>
      )}
      {hints.map((hint, index) => (
        <Card key={hint.id ?? `new-${index}`} withBorder padding="sm" data-testid="hint-row">
          <Stack gap="xs">
            <Group align="flex-start" wrap="nowrap" gap="xs">
              <TextInput label={t("editor.hint_name")} value={hint.name} onChange={(e) => set(index, { name: e.currentTarget.value })} error={errors[`hints.${index}.name`]} style={{ flex: 1 }} maxLength={255} />
              <NumberInput label={t("editor.hint_penalty")} value={hint.penalty} min={0} allowDecimal={false} onChange={(v) => set(index, { penalty: typeof v === "number" ? v : Number(v) || 0 })} error={errors[`hints.${index}.penalty`]} w={110} />
              <ActionIcon variant="subtle" color="red" mt={26} size="lg" aria-label={t("editor.remove_hint", { index: index + 1 })} onClick={() => onChange(hints.filter((_, i) => i !== index))}>
                <span aria-hidden>✕</span>
              </ActionIcon>
            </Group>
            <Textarea label={t("editor.hint_text")} value={hint.text} onChange={(e) => set(index, { text: e.currentTarget.value })} error={errors[`hints.${index}.text`]} autosize minRows={2} />
            <MultiSelect
              label={t("editor.hint_requires")}
              description={t("editor.hint_requires_help")}
              placeholder={(hint.requirements ?? []).length === 0 ? t("editor.hint_requires_none") : undefined}
              data={hints.flatMap((other) => (other.id !== undefined && other.id !== hint.id ? [{ value: String(other.id), label: other.name || `#${other.id}` }] : []))}
              value={(hint.requirements ?? []).map(String)}
              onChange={(values) => set(index, { requirements: values.map(Number) })}
              error={errors[`hints.${index}.requirements`]}
              clearable
              data-testid="hint-requires-input"
            />
          </Stack>
        </Card>
      ))}
      <Group>
        <Button variant="light" onClick={() => onChange([...hints, { name: "", penalty: 0, text: "" }])}>
          {t("editor.add_hint")}
        </Button>
      </Group>
    </Stack>
  );
}

/** Sends a file's bytes to storage; the answer is the file's name, URL and size. */
async function uploadFile(file: File): Promise<FileDraft> {
  const token = session.token;
  const response = await fetch(`/files/upload?name=${encodeURIComponent(file.name)}`, {
    method: "POST",
    headers: { "content-type": "application/octet-stream", ...(token && { authorization: `Token ${token}` }) },
    body: file,
  });
  const body = (await response.json().catch(() => null)) as { s?: boolean; d?: FileDraft | Record<string, string[]>; m?: string } | null;
  if (!response.ok || !body?.s) {
    const details = body?.d && typeof body.d === "object" ? Object.values(body.d as Record<string, string[]>)[0]?.[0] : undefined;
    throw new Error(details ?? body?.m ?? response.statusText);
  }
  return body.d as FileDraft;
}

/** The challenge's files: uploaded to storage or linked by URL, with their size in Bytes..YB. */
export function FilesEditor({ files, onChange, onError }: { files: FileDraft[]; onChange(files: FileDraft[]): void; onError(message: string): void }) {
  const { t } = useTranslation();
  const [uploading, setUploading] = useState<string | null>(null);
  const [link, setLink] = useState<{ name: string; url: string; size: number } | null>(null);
  async function upload(file: File | null) {
    if (!file) return;
    setUploading(file.name);
    try {
      const stored = await uploadFile(file);
      onChange([...files, stored]);
    } catch (error) {
      onError(t("editor.upload_failed", { message: (error as Error).message }));
    } finally {
      setUploading(null);
    }
  }
  return (
    <Stack gap="sm">
      {files.length === 0 && (
        <Text size="sm" c="dimmed">
          {t("editor.no_files")}
        </Text>
      )}
      {files.map((file, index) => (
        <Group key={file.id ?? `${file.url}-${index}`} justify="space-between" wrap="nowrap" data-testid="file-row">
          <Stack gap={0} style={{ minWidth: 0 }}>
            <Text size="sm" fw={500} truncate="end">
              {file.name}
            </Text>
            <Text size="xs" c="dimmed" truncate="end">
              {formatFileSize(file.size)} · {file.url}
            </Text>
          </Stack>
          <ActionIcon variant="subtle" color="red" size="lg" aria-label={t("editor.remove_file", { name: file.name })} onClick={() => onChange(files.filter((_, i) => i !== index))}>
            <span aria-hidden>✕</span>
          </ActionIcon>
        </Group>
      ))}
      {uploading && (
        <Text size="sm" c="dimmed" role="status">
          {t("editor.uploading", { name: uploading })}
        </Text>
      )}
      {link && (
        <Card withBorder padding="sm">
          <Stack gap="xs">
            <Group grow wrap="wrap" align="flex-start">
              <TextInput label={t("editor.file_name")} value={link.name} onChange={(e) => setLink({ ...link, name: e.currentTarget.value })} miw={160} />
              <TextInput label={t("editor.file_url")} value={link.url} onChange={(e) => setLink({ ...link, url: e.currentTarget.value })} miw={200} />
              <NumberInput label={t("editor.file_size")} value={link.size} min={0} allowDecimal={false} onChange={(v) => setLink({ ...link, size: typeof v === "number" ? v : Number(v) || 0 })} miw={120} />
            </Group>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setLink(null)}>
                {t("editor.cancel")}
              </Button>
              <Button
                disabled={link.name.trim() === "" || link.url.trim() === ""}
                onClick={() => {
                  onChange([...files, { name: link.name.trim(), url: link.url.trim(), size: link.size }]);
                  setLink(null);
                }}
              >
                {t("editor.add_file_url")}
              </Button>
            </Group>
          </Stack>
        </Card>
      )}
      <Group gap="sm">
        <FileButton onChange={(file) => void upload(file)}>
          {(props) => (
            <Button {...props} variant="light" loading={uploading !== null}>
              {t("editor.upload_file")}
            </Button>
          )}
        </FileButton>
        {!link && (
          <Button variant="default" onClick={() => setLink({ name: "", url: "", size: 0 })}>
            {t("editor.add_file_url")}
          </Button>
        )}
      </Group>
    </Stack>
  );
}
