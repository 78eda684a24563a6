import { Box, ScrollArea, Text, TextInput } from "@mantine/core";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState } from "react";
import { Dialog } from "../../lib/Dialog.tsx";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { errorText } from "../auth/errors.ts";
import { isFull } from "../challenges/types.ts";
import "../authoring/texts.ts";
import "./terminal.css";

/** Markdown reduced to one line of plain text for the terminal. */
const plain = (markdown: string) => markdown.replace(/[*_`#>[\]]/g, "").replace(/\(([^)]*)\)/g, "").replace(/\s+/g, " ").trim();

/**
 * The player spec's easter egg: a hidden key sequence opens a small terminal whose commands use
 * the real API (who am I, list and read challenges, submit a flag).
 */
export function FakeTerminal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const { me } = useAppData();
  const [lines, setLines] = useState<string[]>([]);
  const [input, setInput] = useState("");
  const [busy, setBusy] = useState(false);
  const end = useRef<HTMLDivElement>(null);

  // Each opening starts with the welcome line.
  useEffect(() => {
    if (opened) setLines([t("terminal.welcome")]);
  }, [opened, t]);

  useEffect(() => {
    end.current?.scrollIntoView?.({ block: "end" });
  }, [lines]);

  async function run(command: string): Promise<string[]> {
    const [name = "", ...args] = command.trim().split(/\s+/);
    switch (name) {
      case "":
        return [];
      case "help":
        return [t("terminal.help")];
      case "whoami":
        return [me ? me.username : t("terminal.not_logged_in")];
      case "clear":
        setLines([]);
        return [];
      case "exit":
        onClose();
        return [];
      case "ls": {
        const categories = await client.challenges.categories.query();
        if (args.length === 0) return categories.map((c) => `${c.slug}/  (${c.challenges.length})`);
        const category = categories.find((c) => c.slug === args[0] || String(c.id) === args[0]);
        if (!category) return [`ls: ${args[0]}: No such category`];
        return category.challenges.map((c) => (isFull(c) ? `${c.id}\t${c.name}\t${c.current_score} pts${c.solved ? "\t[solved]" : ""}` : `${c.id}\t[locked]`));
      }
      case "cat": {
        const id = Number(args[0]);
        if (!Number.isInteger(id)) return [t("terminal.usage_cat")];
        const challenge = (await client.challenges.categories.query()).flatMap((c) => c.challenges).find((c) => c.id === id);
        if (!challenge) return [t("terminal.no_such", { id })];
        if (!isFull(challenge)) return [t("terminal.locked", { id })];
        return [`# ${challenge.name} (${challenge.current_score} pts)`, plain(challenge.description)];
      }
      case "submit": {
        const id = Number(args[0]);
        const flag = args.slice(1).join(" ");
        if (!Number.isInteger(id) || flag === "") return [t("terminal.usage_submit")];
        const result = await client.challenges.submitFlag.mutate({ challenge: id, flag });
        if (!result.d.correct) return [t("terminal.incorrect")];
        await queryClient.invalidateQueries({ queryKey: trpc.challenges.categories.queryKey() });
        const challenge = (await client.challenges.categories.query()).flatMap((c) => c.challenges).find((c) => c.id === id);
        return [t("terminal.correct", { points: challenge && isFull(challenge) ? challenge.current_score : 0 })];
      }
      default:
        return [t("terminal.unknown", { command: name })];
    }
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const command = input;
    setInput("");
    setLines((l) => [...l, `$ ${command}`]);
    setBusy(true);
    try {
      const output = await run(command);
      if (output.length > 0) setLines((l) => [...l, ...output]);
    } catch (error) {
      setLines((l) => [...l, errorText(error)]);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog opened={opened} onClose={onClose} title={t("terminal.title")} size="lg" bodyClassName="fake-terminal">
      <ScrollArea h={300} type="auto">
        <Box component="pre" className="fake-terminal-output" data-testid="terminal-output" aria-live="polite">
          {lines.join("\n")}
          <div ref={end} />
        </Box>
      </ScrollArea>
      <form onSubmit={(e) => void submit(e)}>
        <TextInput
          aria-label={t("terminal.prompt_label")}
          leftSection={<Text ff="monospace" c="green.4" aria-hidden>$</Text>}
          value={input}
          onChange={(e) => setInput(e.currentTarget.value)}
          disabled={busy}
          data-autofocus
          autoComplete="off"
          spellCheck={false}
          classNames={{ input: "fake-terminal-input" }}
          data-testid="terminal-input"
        />
      </form>
    </Dialog>
  );
}
