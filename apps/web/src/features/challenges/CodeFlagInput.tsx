import { cpp } from "@codemirror/lang-cpp";
import { java } from "@codemirror/lang-java";
import { javascript } from "@codemirror/lang-javascript";
import { python } from "@codemirror/lang-python";
import { StreamLanguage } from "@codemirror/language";
import { gas } from "@codemirror/legacy-modes/mode/gas";
import { perl } from "@codemirror/legacy-modes/mode/perl";
import { ruby } from "@codemirror/legacy-modes/mode/ruby";
import { Input, Stack, useComputedColorScheme } from "@mantine/core";
import CodeMirror from "@uiw/react-codemirror";
import { useEffect, useMemo } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { CodeLanguage } from "./FlagInputs.tsx";
import type { FlagInputProps } from "./registry.tsx";

function languageExtension(language: string) {
  switch (language) {
    case "python":
      return python();
    case "cpp":
    case "gcc":
      return cpp();
    case "java":
      return java();
    case "node":
      return javascript();
    case "perl":
      return StreamLanguage.define(perl);
    case "ruby":
      return StreamLanguage.define(ruby);
    case "nasm":
      return StreamLanguage.define(gas);
    default:
      return null;
  }
}

/** The code type: an editor in the challenge's language, starting from its default code. */
export default function CodeFlagInput({ challenge, value, onChange, disabled }: FlagInputProps) {
  const { t } = useTranslation();
  const scheme = useComputedColorScheme("light");
  const language = typeof challenge.challenge_metadata.code_language === "string" ? challenge.challenge_metadata.code_language : "";
  const initial = typeof challenge.challenge_metadata.code_default === "string" ? challenge.challenge_metadata.code_default : "";
  const extensions = useMemo(() => {
    const ext = languageExtension(language);
    return ext ? [ext] : [];
  }, [language]);
  useEffect(() => {
    if (value === null && initial) onChange(initial);
  }, [value, initial, onChange]);
  return (
    <Stack gap="xs">
      <Input.Label>{t("challenges.flag")}</Input.Label>
      {language && <CodeLanguage language={language} />}
      <div style={{ border: "1px solid var(--mantine-color-default-border)", borderRadius: "var(--mantine-radius-md)", overflow: "hidden" }} data-testid="code-editor">
        <CodeMirror
          value={typeof value === "string" ? value : initial}
          onChange={(text) => onChange(text)}
          extensions={extensions}
          editable={!disabled}
          theme={scheme === "dark" ? "dark" : "light"}
          minHeight="200px"
          maxHeight="480px"
          basicSetup={{ lineNumbers: true, foldGutter: false }}
        />
      </div>
    </Stack>
  );
}

