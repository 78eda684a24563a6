import { notifications } from "@mantine/notifications";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC, useTRPCClient } from "../../lib/trpc.ts";
import { errorText } from "../auth/errors.ts";
import type { TileMove } from "../challenges/registry.tsx";
import type { CategoryView } from "../challenges/types.ts";
import "./texts.ts";

/**
 * Moving campaign tiles: x and y go into each challenge's challenge_metadata. The listing moves
 * at once and moves back, with 'Error moving challenge: ...', if the server refuses.
 */
export function useMoveTile(category: CategoryView): (moves: TileMove[]) => void {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const listKey = trpc.challenges.categories.queryKey();
  return (moves) => {
    const previous = queryClient.getQueryData(listKey);
    const metadataOf = new Map(category.challenges.map((c) => [c.id, c.challenge_metadata]));
    const next = new Map(moves.map((m) => [m.id, { ...metadataOf.get(m.id), x: m.x, y: m.y }]));
    queryClient.setQueryData(listKey, (old) =>
      old?.map((c) => (c.id !== category.id ? c : { ...c, challenges: c.challenges.map((ch) => (next.has(ch.id) ? { ...ch, challenge_metadata: next.get(ch.id)! } : ch)) })),
    );
    void Promise.all([...next].map(([id, metadata]) => client.challenges.update.mutate({ id, patch: { challenge_metadata: metadata } }))).then(
      () => queryClient.invalidateQueries({ queryKey: listKey }),
      (error: unknown) => {
        queryClient.setQueryData(listKey, previous);
        void queryClient.invalidateQueries({ queryKey: listKey });
        notifications.show({ color: "red", message: t("editor.move_failed", { message: errorText(error) }) });
      },
    );
  };
}
