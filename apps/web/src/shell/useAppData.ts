import { useQuery } from "@tanstack/react-query";
import { useTRPC } from "../lib/trpc.ts";
import { useToken } from "../lib/session.ts";

/** The public config and the signed-in user, the two things every screen of the shell reads. */
export function useAppData() {
  const trpc = useTRPC();
  const token = useToken();
  const config = useQuery(trpc.config.list.queryOptions(undefined, { staleTime: 30_000 }));
  const me = useQuery(trpc.auth.me.queryOptions(undefined, { enabled: token !== null, staleTime: 30_000 }));
  return {
    config: config.data,
    me: token ? (me.data ?? null) : null,
    loading: config.isPending || (token !== null && me.isPending),
    error: config.error ?? me.error,
  };
}
