import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../../lib/trpc.ts";

/** The category listing: one query, shared by the campaign, category and challenge screens. */
export function useCategories(enabled = true) {
  const trpc = useTRPC();
  return useQuery(trpc.challenges.categories.queryOptions(undefined, { staleTime: 15_000, retry: false, enabled }));
}
