import { Alert } from "@mantine/core";
import { useMemo } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import type { CategoryView } from "../challenges/types.ts";
import { ChallengeEditor } from "./ChallengeEditor.tsx";
import { prefillFromHash } from "./draft.ts";
import "./texts.ts";

/** /campaign/{tabId}/new, optionally prefilled from URL-encoded JSON in the hash. */
export function NewChallengeEditor({ category, hash }: { category: CategoryView; hash: string }) {
  const { t } = useTranslation();
  const prefill = useMemo(() => prefillFromHash(hash), [hash]);
  return (
    <>
      {prefill.invalid && (
        <Alert color="orange" role="status">
          {t("editor.prefill_invalid")}
        </Alert>
      )}
      <ChallengeEditor key={hash} category={category} prefill={prefill.draft} />
    </>
  );
}
