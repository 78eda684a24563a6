import { Box, Group, Table, Text, Title, useMantineColorScheme } from "@mantine/core";
import { useElementSize, useMediaQuery, useMergedRef } from "@mantine/hooks";
import { TIMINGS } from "@flagship/shared";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { useCountdown } from "../countdown/useCountdown.ts";
import { useAppData } from "../../shell/useAppData.ts";
import "../moments/texts.ts";
import { useEventMoment } from "../moments/useEventMoment.ts";
import { formatClock, MIN_ROW, rowHeight } from "./clock.ts";
import { ScoreGraph, toSeries } from "./ScoreGraph.tsx";
import { clockTime } from "./time-axis.ts";
import "./texts.ts";
import "./leaderboard.css";
import { useHydrated, useRenderNow } from "../../lib/render-clock.ts";

/** How many places the board reads, scrolled through when they do not all fit the screen. */
const SHOWN = 50;
const FIRST_BLOODS = 3;
/** The top three places, drawn gold, silver and bronze and named so (not by colour alone). */
const MEDALS = ["gold", "silver", "bronze"] as const;
/** Auto-scroll: its speed, and the pause at the top and at the bottom of the board. */
const SCROLL_PX_PER_S = 40;
const SCROLL_HOLD_MS = 4000;
/** The graph's height on a wide screen: what the side column leaves it, within these bounds. */
const GRAPH_MIN = 240;
const GRAPH_MAX = 560;
/** With reduced motion the board turns a page at a time, this often, without animation. */
const PAGE_TURN_MS = 10_000;

const SCHEME_ATTRIBUTE = "data-mantine-color-scheme";

/**
 * The projector board is dark whatever scheme the visitor picked (a dark room, a bright screen),
 * without touching their stored choice: the page sets the document dark before it is painted (the
 * server draws it dark too) and gives the visitor's scheme back when it is left.
 */
function useProjectorScheme() {
  const { colorScheme } = useMantineColorScheme();
  // The visitor's scheme as last drawn, for when the board is left.
  const chosen = useRef(colorScheme);
  useEffect(() => {
    chosen.current = colorScheme;
  }, [colorScheme]);
  useLayoutEffect(() => {
    const root = document.documentElement;
    root.setAttribute(SCHEME_ATTRIBUTE, "dark");
    return () => {
      const choice = chosen.current;
      root.setAttribute(SCHEME_ATTRIBUTE, choice === "auto" ? (window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light") : choice);
    };
  }, []);
}

/**
 * Scrolls a box that holds more than it shows: slowly down, a pause at the bottom, back to the top,
 * a pause, again. Under prefers-reduced-motion it turns a page at a time instead, without
 * animation. A pointer over the box holds it, so someone can read a place.
 */
function useAutoScroll(ref: RefObject<HTMLElement | null>, enabled: boolean) {
  useEffect(() => {
    const box = ref.current;
    if (!box || !enabled) return;
    let held = false;
    const hold = () => (held = true);
    const release = () => (held = false);
    box.addEventListener("pointerenter", hold);
    box.addEventListener("pointerleave", release);
    const stop = () => {
      box.removeEventListener("pointerenter", hold);
      box.removeEventListener("pointerleave", release);
      box.scrollTop = 0;
    };
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) {
      const timer = setInterval(() => {
        if (held) return;
        const end = box.scrollHeight - box.clientHeight;
        box.scrollTop = box.scrollTop >= end - 1 ? 0 : Math.min(end, box.scrollTop + box.clientHeight);
      }, PAGE_TURN_MS);
      return () => {
        clearInterval(timer);
        stop();
      };
    }
    let frame = 0;
    let last = performance.now();
    let until = last + SCROLL_HOLD_MS;
    let position = 0;
    const step = (time: number) => {
      const end = box.scrollHeight - box.clientHeight;
      if (!held && time >= until) {
        if (position >= end) {
          position = 0;
          until = time + SCROLL_HOLD_MS;
        } else {
          position = Math.min(end, position + (SCROLL_PX_PER_S * (time - last)) / 1000);
          if (position >= end) until = time + SCROLL_HOLD_MS;
        }
        box.scrollTop = position;
      }
      last = time;
      frame = requestAnimationFrame(step);
    };
    frame = requestAnimationFrame(step);
    return () => {
      cancelAnimationFrame(frame);
      stop();
    };
  }, [ref, enabled]);
}

/**
 * The graph's height on a wide screen: the side column's height less the first bloods and the
 * graph's legend (which wraps onto as many lines as the names need), so the whole legend shows.
 */
function useGraphHeight(phone: boolean) {
  const { ref: sideRef, height: side } = useElementSize<HTMLDivElement>();
  const { ref: bloodsRef, height: bloods } = useElementSize<HTMLDivElement>();
  const { ref: graphSizeRef, height: graph } = useElementSize<HTMLDivElement>();
  const graphBox = useRef<HTMLDivElement>(null);
  const graphRef = useMergedRef(graphSizeRef, graphBox);
  const [height, setHeight] = useState(GRAPH_MIN);
  useEffect(() => {
    const box = graphBox.current;
    const chart = box?.querySelector<HTMLElement>('[role="img"]');
    if (phone || !box || !chart || side <= 0) return;
    // Everything in the graph's box but the chart (its legend), measured together with it.
    const rest = box.getBoundingClientRect().height - chart.getBoundingClientRect().height;
    const gap = parseFloat(getComputedStyle(box.parentElement!).rowGap) || 0;
    const room = side - (bloods > 0 ? bloods + gap : 0) - rest;
    const next = Math.max(GRAPH_MIN, Math.min(GRAPH_MAX, Math.floor(room)));
    setHeight((was) => (Math.abs(was - next) > 2 ? next : was));
  }, [phone, side, bloods, graph]);
  return { sideRef, bloodsRef, graphRef, height };
}

/** The time left to the start or the end in large figures; the time of day when neither is set. */
function ProjectorClock() {
  const { t } = useTranslation();
  const { target, flags } = useCountdown();
  const drawnAt = useRenderNow();
  const hydrated = useHydrated();
  const [now, setNow] = useState(() => new Date(drawnAt));
  useEffect(() => {
    if (target) return;
    const timer = setInterval(() => setNow(new Date()), 1000);
    return () => clearInterval(timer);
  }, [target]);
  const label = target ? t(target.kind === "start" ? "countdown.starts_in" : "countdown.ends_in") : flags?.competition_end ? t("countdown.ended") : t("projector.time_now");
  // The time of day is in the reader's zone: drawn once the page is the browser's own.
  const value = target ? formatClock(target.remaining) : hydrated ? clockTime(now.getTime()) : "";
  return (
    <div className="projector-clock" role="timer" aria-label={`${label} ${value}`} data-testid="projector-clock">
      <Text className="projector-clock-label" c="dimmed" fw={600}>
        {label}
      </Text>
      <span className="projector-clock-value" data-testid="projector-clock-value">
        {value}
      </span>
    </div>
  );
}

function FirstBloods() {
  const hydrated = useHydrated();
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { data } = useQuery(trpc.leaderboard.firstBloods.queryOptions({ limit: FIRST_BLOODS, players: true }, { refetchInterval: TIMINGS.leaderboardReloadMs }));
  if (!data || "hidden" in data) return null;
  return (
    <section className="projector-bloods" aria-labelledby="projector-bloods-title" data-testid="first-bloods">
      <Title order={2} id="projector-bloods-title" fz={{ base: 22, md: 30 }} mb="sm">
        <span aria-hidden className="projector-blood-mark" />
        {t("projector.first_bloods")}
      </Title>
      {data.results.length === 0 ? (
        <Text fz={{ base: 18, md: 24 }} c="dimmed">
          {t("projector.no_first_bloods")}
        </Text>
      ) : (
        <ul className="projector-bloods-list">
          {data.results.map((blood) => {
            const time = hydrated ? clockTime(new Date(blood.timestamp).getTime()) : "";
            return (
              <li key={blood.challenge_id} aria-label={t("projector.first_blood_by", { challenge: blood.challenge_name, solver: blood.solver_name, time })}>
                <span className="projector-blood-challenge">{blood.challenge_name}</span>
                <span className="projector-blood-solver">{blood.solver_name}</span>
                <time dateTime={blood.timestamp} className="projector-blood-time">
                  {time}
                </time>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}

/**
 * The room's line under the title: since when the board is frozen (and, once the event is over,
 * that the final board comes at the prize-giving), or that these are the final results.
 */
function ProjectorMoment() {
  const hydrated = useHydrated();
  const { t } = useTranslation();
  const moment = useEventMoment();
  if (!moment) return null;
  let text: string | null = null;
  if (moment.frozenAt) {
    const time = hydrated ? clockTime(moment.frozenAt * 1000) : "";
    text = moment.phase === "ended" ? t("projector.frozen_ended", { time }) : t("projector.frozen", { time });
  } else if (moment.phase === "ended") {
    text = t("moments.final_board");
  }
  if (!text) return null;
  return (
    <p className="projector-moment" role="status" data-frozen={moment.frozenAt !== null} data-testid="projector-moment">
      {text}
    </p>
  );
}

/**
 * A full-screen board for a projector: the event's name and a large clock, the board (rows sized
 * to how many there are, scrolling by itself when they do not fit), the graph of the top ten and
 * the latest first bloods, kept live by websocket events and a periodic refresh.
 */
export function LargeLeaderboardPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { config } = useAppData();
  useProjectorScheme();
  // On a phone (someone following the board from the room) the page scrolls as any page: the
  // graph takes the page's type and a phone's height, and the board does not scroll by itself.
  // Known at once when the browser draws the page; a page the server drew (which cannot know the
  // screen) hydrates as drawn, wide, then takes the phone's layout.
  const hydrated = useHydrated();
  const phone = useMediaQuery("(max-width: 47.99em)", false, { getInitialValueInEffect: !hydrated });
  const teams = config?.enable_teams !== false;
  // The room sees what players see, even on a staff member's laptop: a frozen board stays frozen
  // on the projector until the reveal.
  const input = { limit: SHOWN, offset: 0, players: true };
  const refetchInterval = TIMINGS.leaderboardReloadMs;
  const teamBoard = useQuery(trpc.leaderboard.teams.queryOptions(input, { enabled: teams, refetchInterval }));
  const userBoard = useQuery(trpc.leaderboard.users.queryOptions(input, { enabled: !teams, refetchInterval }));
  const graph = useQuery(trpc.leaderboard.graph.queryOptions({ players: true }, { refetchInterval }));
  const board = teams ? teamBoard.data : userBoard.data;
  const rows =
    board && !("hidden" in board)
      ? board.results.map((r) => ({ id: r.id, name: "name" in r ? r.name : r.username, points: r.leaderboard_points }))
      : [];
  const g = graph.data && !("hidden" in graph.data) ? graph.data : null;
  const names = rows.slice(0, 10).map((r) => r.name);
  const series = g ? (teams ? toSeries(g.team ?? [], (p) => p.team_name, names) : toSeries(g.user, (p) => p.user_name, names)) : [];
  const { ref: boardRef, height: room } = useElementSize<HTMLDivElement>();
  const height = phone ? undefined : rowHeight(room, rows.length);
  const overflows = !phone && room > 0 && rows.length * MIN_ROW > room;
  const graphHeight = useGraphHeight(phone);
  const scrollRef = useRef<HTMLDivElement>(null);
  const boardRefs = useMergedRef(boardRef, scrollRef);
  useAutoScroll(scrollRef, overflows);

  return (
    <Box component="main" id="main" p={{ base: "md", md: "xl" }} className="projector" data-phone={phone}>
      {/* The clock goes under the event's name when both do not fit on one line (a phone). */}
      <Group justify="space-between" align="center" gap="xs" className="projector-header" data-testid="projector-header">
        <Title order={1} fz={{ base: 28, md: 56 }} className="projector-title">
          {config?.event_name ?? "Flagship"}
        </Title>
        <ProjectorClock />
      </Group>
      <ProjectorMoment />
      {/* Board and graph side by side on a wide screen, one above the other full width on a narrow one. */}
      <div className="projector-body" data-graph={series.length > 0}>
        <div ref={boardRefs} className="projector-board" data-autoscroll={overflows} data-testid="projector-board">
          <Table fz={{ base: 20, md: 30 }} verticalSpacing={phone ? "xs" : 0} aria-label={t("leaderboard.title")}>
            <Table.Tbody>
              {rows.map((row, i) => (
                <Table.Tr key={row.id} style={height === undefined ? undefined : { height }} data-testid="projector-row">
                  <Table.Td w={{ base: 64, md: 200 }} fw={800}>
                    <span className="projector-rank" data-medal={MEDALS[i]} data-testid="projector-rank">
                      {i + 1}
                    </span>
                    {MEDALS[i] && (
                      <span className="projector-medal" data-testid="projector-medal">
                        {t(`leaderboard.medal_${MEDALS[i]}`)}
                      </span>
                    )}
                  </Table.Td>
                  <Table.Td fw={600} style={{ wordBreak: "break-word" }}>
                    {row.name}
                  </Table.Td>
                  <Table.Td ta="right" ff="monospace" fw={700}>
                    {row.points}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {board && "hidden" in board && (
            <Text fz={28} c="dimmed" ta="center" mt="xl">
              {t("leaderboard.hidden")}
            </Text>
          )}
        </div>
        <div ref={graphHeight.sideRef} className="projector-side">
          <div ref={graphHeight.bloodsRef}>
            <FirstBloods />
          </div>
          {series.length > 0 && (
            <Box miw={0} ref={graphHeight.graphRef}>
              <ScoreGraph
                series={series}
                label={t("leaderboard.graph_label")}
                startTime={config?.start_time ?? null}
                height={phone ? 360 : graphHeight.height}
                scheme="dark"
                size={phone ? "page" : "projector"}
              />
            </Box>
          )}
        </div>
      </div>
    </Box>
  );
}
