import { useQuery } from "@tanstack/react-query";
import { errorCode, useTRPC } from "../lib/trpc.ts";
import { useToken } from "../lib/session.ts";

/** The public config and the signed-in user, the two things every screen of the shell reads. */
export function useAppData() {
  const trpc = useTRPC();
  const token = useToken();
  const config = useQuery(trpc.config.list.queryOptions(undefined, { staleTime: 30_000 }));
  const me = useQuery(trpc.auth.me.queryOptions(undefined, { enabled: token !== null, staleTime: 30_000 }));
  // A failed read of the user with a token still stored is not "logged out": a network blip must
  // not bounce the player to /login (a rejected token is handled by the session watcher).
  const meUnknown = token !== null && (me.isPending || (me.isError && me.data === undefined && errorCode(me.error) !== "authentication_failed"));
  return {
    config: config.data,
    me: token ? (me.data ?? null) : null,
    loading: config.isPending || meUnknown,
    error: config.error ?? me.error,
  };
}
