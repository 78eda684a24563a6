import { notifications } from "@mantine/notifications";
import { type NotificationPreferences, TIMINGS } from "@flagship/shared";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useEffect, useRef, useState, useSyncExternalStore } from "react";
import { coalesce } from "../../lib/coalesce.ts";
import { useTranslation } from "../../lib/i18n.ts";
import { Markdown } from "../../lib/Markdown.tsx";
import { session, useToken } from "../../lib/session.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useAppData } from "../../shell/useAppData.ts";
import { RealtimeSocket, type SocketEvent, type SocketState } from "./socket.ts";
import "../sharing/texts.ts";

interface RealtimeValue extends SocketState {
  /** The latest events, newest first, for the diagnostics page. */
  recent: SocketEvent[];
}

/**
 * The socket's state, kept outside React's context: the provider is above every page, and a
 * context value that changed as the socket connects would make React hydrate the page under it
 * in one long task (it cannot tell which of a part not yet hydrated reads it). Only what reads the
 * state (the connection banner, the diagnostics page) draws again when it changes.
 */
class RealtimeStore {
  private value: RealtimeValue = { connected: false, cooldown: TIMINGS.wsBackoffStartMs, timer: 1, recent: [] };
  private readonly listeners = new Set<() => void>();
  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };
  readonly get = () => this.value;
  update(change: Partial<RealtimeValue>): void {
    this.value = { ...this.value, ...change };
    for (const listener of this.listeners) listener();
  }
}

const RealtimeContext = createContext<RealtimeStore>(new RealtimeStore());

export function useRealtimeState(): RealtimeValue {
  const store = useContext(RealtimeContext);
  return useSyncExternalStore(store.subscribe, store.get, store.get);
}

const ALL_ON: NotificationPreferences = { all_solves: true, flag_reject: true, hint_used: true, team_join: true };

/** Queries whose data an event may have changed; account and config queries are left alone. */
const LIVE_ROOTS = new Set(["leaderboard", "challenges", "categories", "hints", "teams", "users", "members", "profiles", "stats", "scoring", "game", "moderation"]);

/**
 * The most often one browser reads its live data again: a burst of events (the solves at an
 * event's start, hundreds of wrong flags a second on a staff member's submissions log) is one
 * refetch at once and one more a second later, not one per event.
 */
const LIVE_REFRESH_MS = 1000;

/**
 * Keeps one websocket open for the app: refreshes what events change, pops up notices the user
 * asked for (10 s each), and lists new announcements as they arrive.
 */
export function RealtimeProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const token = useToken();
  const { config, me } = useAppData();
  // The user's notification preferences (all on for visitors).
  const prefs = useQuery(trpc.account.notifications.queryOptions(undefined, { enabled: token !== null, staleTime: 60_000 }));
  const preferences = (token && prefs.data) || ALL_ON;
  const [store] = useState(() => new RealtimeStore());
  const socketRef = useRef<RealtimeSocket | null>(null);
  const settings = useRef({ preferences, broadcast: config?.enable_solve_broadcast !== false, userId: me?.id ?? null });
  settings.current = { preferences, broadcast: config?.enable_solve_broadcast !== false, userId: me?.id ?? null };

  useEffect(() => {
    const url = `${window.location.protocol === "https:" ? "wss" : "ws"}://${window.location.host}/api/v2/ws/`;
    const refreshLive = coalesce(
      () =>
        void queryClient.invalidateQueries({
          predicate: (query) => {
            const root = (query.queryKey[0] as unknown[] | undefined)?.[0];
            return typeof root === "string" && LIVE_ROOTS.has(root);
          },
        }),
      LIVE_REFRESH_MS,
    );
    const refreshSubmissions = coalesce(() => void queryClient.invalidateQueries({ queryKey: [["moderation", "submissions"]] }), LIVE_REFRESH_MS);
    const popup = (title: string, message: ReactNode, color = "blue") =>
      notifications.show({ title, message, color, autoClose: TIMINGS.popupDismissMs });

    const onEvent = (event: SocketEvent) => {
      store.update({ recent: [event, ...store.get().recent].slice(0, 50) });
      const { preferences: prefs, broadcast, userId } = settings.current;
      const e = event as Record<string, string | number | undefined> & { event_code: number };
      switch (event.event_code) {
        case 1:
          refreshLive();
          // The solver has the success dialog already: no toast on top of it.
          if (broadcast && prefs.all_solves && e.user !== userId) {
            popup(t("realtime.solve_title"), t("realtime.solve", { username: e.username, team: e.team_name, challenge: e.challenge_name }), "green");
          }
          break;
        case 2:
          // The guesser has the form's own "Incorrect flag": no toast of their guess on top of it.
          if (prefs.flag_reject && e.user !== userId) popup(t("realtime.reject_title"), t("realtime.reject", { username: e.username, challenge: e.challenge_name }), "red");
          break;
        case 3:
          refreshLive();
          if (prefs.hint_used) popup(t("realtime.hint_title"), t("realtime.hint", { username: e.username, hint: e.hint_name, challenge: e.challenge_name }), "yellow");
          break;
        case 4:
          refreshLive();
          if (prefs.team_join) popup(t("realtime.join_title"), t("realtime.join", { username: e.username, team: e.team_name }));
          break;
        case 5:
          void queryClient.invalidateQueries({ predicate: (q) => (q.queryKey[0] as unknown[] | undefined)?.[0] === "announcements" });
          popup(String(e.title ?? ""), <Markdown>{String(e.body ?? "")}</Markdown>, "grape");
          break;
        case 6:
        case 7:
          refreshLive();
          break;
        case 9:
          // Staff changed the config (a moved schedule, a revealed board...): every view may
          // depend on it, so all of it is read again; spread over a second and a half so a full
          // event's browsers do not all ask in the same instant.
          window.setTimeout(() => void queryClient.invalidateQueries(), Math.random() * 1500);
          break;
        case 8:
          // Staff only: suspected flag sharing.
          void queryClient.invalidateQueries({ predicate: (q) => { const key = q.queryKey[0] as unknown[] | undefined; return key?.[0] === "admin" && key[1] === "sharing"; } });
          popup(t("sharing.live_title"), t(e.kind === "same_wrong_flag" ? "sharing.live_same_wrong_flag" : "sharing.live_team_flag", { team: e.team_name, other: e.other_team_name, challenge: e.challenge_name }), "red");
          break;
        case 10:
          // Staff only: a wrong flag; the submissions log shows it (solves refresh it as live data).
          refreshSubmissions();
          break;
      }
    };
    const socket = new RealtimeSocket(url, () => session.token, onEvent, (state) => store.update(state));
    socketRef.current = socket;
    socket.start();
    return () => {
      socket.stop();
      refreshLive.cancel();
      refreshSubmissions.cancel();
    };
  }, [queryClient, t, store]);

  // A new session (login, impersonation) joins its team's channel on the open socket.
  useEffect(() => {
    socketRef.current?.authenticate();
  }, [token]);

  return <RealtimeContext.Provider value={store}>{children}</RealtimeContext.Provider>;
}
