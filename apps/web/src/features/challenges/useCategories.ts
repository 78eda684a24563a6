import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc.ts";
import { useViewAsPlayer } from "../../shell/viewAsPlayer.ts";
import { asPlayerSees } from "./player-view.ts";

/** The category listing: one query, shared by the campaign, category and challenge screens. */
export function useCategories(enabled = true) {
  const trpc = useTRPC();
  return useQuery(trpc.challenges.categories.queryOptions(undefined, { staleTime: 15_000, retry: false, enabled }));
}

/**
 * The listing the campaign screens draw: the caller's own, or, while staff preview the event as a
 * player, what a player would be sent (hidden challenges out, locked ones as stubs).
 */
export function useCampaignCategories() {
  const trpc = useTRPC();
  const preview = useViewAsPlayer();
  return useQuery(trpc.challenges.categories.queryOptions(undefined, { staleTime: 15_000, retry: false, ...(preview && { select: asPlayerSees }) }));
}
