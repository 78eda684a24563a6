import { Box, Group, SimpleGrid, Table, Text, Title } from "@mantine/core";
import { useMediaQuery } from "@mantine/hooks";
import { TIMINGS } from "@flagship/shared";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { Countdown } from "../countdown/Countdown.tsx";
import { useAppData } from "../../shell/useAppData.ts";
import { ScoreGraph, toSeries } from "./ScoreGraph.tsx";
import "./leaderboard.css";

const SHOWN = 15;
/** The top three places, drawn gold, silver and bronze and named so (not by colour alone). */
const MEDALS = ["gold", "silver", "bronze"] as const;

/**
 * The projector board is dark whatever scheme the visitor picked (a dark room, a bright screen):
 * the page sets the dark scheme on the document while it is shown and gives the previous one back
 * when it is left, without touching the visitor's stored choice.
 */
function useProjectorScheme() {
  useEffect(() => {
    const root = document.documentElement;
    const before = root.getAttribute("data-mantine-color-scheme");
    root.setAttribute("data-mantine-color-scheme", "dark");
    root.dataset.projector = "";
    return () => {
      if (before) root.setAttribute("data-mantine-color-scheme", before);
      delete root.dataset.projector;
    };
  }, []);
}

/**
 * A full-screen board for a projector: large type, the top teams (or users when teams are off)
 * and their graph, kept live by websocket events and a periodic refresh.
 */
export function LargeLeaderboardPage() {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const { config } = useAppData();
  useProjectorScheme();
  // On a phone (someone following the board from the room) the graph takes the page's type and a
  // phone's height: the projector's 22px axis labels left the plot a sliver of the width.
  const phone = useMediaQuery("(max-width: 47.99em)", false, { getInitialValueInEffect: false });
  const teams = config?.enable_teams !== false;
  const input = { limit: SHOWN, offset: 0 };
  const refetchInterval = TIMINGS.leaderboardReloadMs;
  const teamBoard = useQuery(trpc.leaderboard.teams.queryOptions(input, { enabled: teams, refetchInterval }));
  const userBoard = useQuery(trpc.leaderboard.users.queryOptions(input, { enabled: !teams, refetchInterval }));
  const graph = useQuery(trpc.leaderboard.graph.queryOptions(undefined, { refetchInterval }));
  const board = teams ? teamBoard.data : userBoard.data;
  const rows =
    board && !("hidden" in board)
      ? board.results.map((r) => ({ id: r.id, name: "name" in r ? r.name : r.username, points: r.leaderboard_points }))
      : [];
  const g = graph.data && !("hidden" in graph.data) ? graph.data : null;
  const names = rows.slice(0, 10).map((r) => r.name);
  const series = g ? (teams ? toSeries(g.team ?? [], (p) => p.team_name, names) : toSeries(g.user, (p) => p.user_name, names)) : [];

  return (
    <Box component="main" id="main" mih="100vh" p={{ base: "md", md: "xl" }} className="projector">
      {/* The countdown goes under the event's name when both do not fit on one line (a phone). */}
      <Group justify="space-between" mb="lg" gap="xs" data-testid="projector-header">
        <Title order={1} fz={{ base: 28, md: 48 }}>
          {config?.event_name ?? "Flagship"}
        </Title>
        <Countdown labelled />
      </Group>
      {/* Board and graph side by side on a wide screen, one above the other full width on a narrow one. */}
      <SimpleGrid cols={{ base: 1, md: series.length > 0 ? 2 : 1 }} spacing="xl">
        <Table fz={{ base: 20, md: 30 }} verticalSpacing="sm" aria-label={t("leaderboard.title")}>
          <Table.Tbody>
            {rows.map((row, i) => (
              <Table.Tr key={row.id}>
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
        {series.length > 0 && (
          <Box miw={0}>
            <ScoreGraph
              series={series}
              label={t("leaderboard.graph_label")}
              startTime={config?.start_time ?? null}
              height={phone ? 360 : 560}
              scheme="dark"
              size={phone ? "page" : "projector"}
            />
          </Box>
        )}
      </SimpleGrid>
      {board && "hidden" in board && (
        <Text fz={28} c="dimmed" ta="center" mt="xl">
          {t("leaderboard.hidden")}
        </Text>
      )}
    </Box>
  );
}
