import { unlockTree } from "@flagship/shared";
import { Text, type TextProps } from "@mantine/core";
import { useMemo } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { describeUnlock, type Seen, type UnlockWords } from "./unlock-text.ts";
import { isFull } from "./types.ts";
import { useCategories } from "./useCategories.ts";

/**
 * What unlocks a challenge, in words: "Solve “A” and “B” to unlock it." Names come from the
 * listing the player already has; a locked one (a stub without its name) or a hidden one (not
 * listed at all) is only counted.
 */
export function useUnlockText(expression: string, template: "unlock_by" | "locked_tile_by" = "unlock_by"): string {
  const { t, i18n } = useTranslation();
  const { data } = useCategories();
  return useMemo(() => {
    const tree = unlockTree(expression);
    if (!tree) return t("challenges.unlock_other");
    const known = new Map<number, Seen>();
    for (const category of data ?? []) for (const c of category.challenges) known.set(c.id, isFull(c) ? { kind: "named", name: c.name } : { kind: "locked" });
    const words: UnlockWords = {
      list: (parts, kind) => new Intl.ListFormat(i18n.language, { type: kind === "all" ? "conjunction" : "disjunction" }).format(parts),
      unnamed: (which, count, kind) => (count > 1 && kind === "any" ? t(`challenges.unnamed_${which}_any`, { count }) : t(`challenges.unnamed_${which}`, { count })),
    };
    return t(`challenges.${template}`, { requirements: describeUnlock(tree, (id) => known.get(id) ?? { kind: "hidden" }, words) });
  }, [data, expression, i18n.language, t, template]);
}

export function UnlockHint({ expression, ...props }: { expression: string } & TextProps) {
  const text = useUnlockText(expression);
  return (
    <Text size="sm" data-testid="unlock-hint" {...props}>
      {text}
    </Text>
  );
}
