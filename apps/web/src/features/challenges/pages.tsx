import { Alert, Anchor, Button, Card, Group, Stack, ThemeIcon, Title } from "@mantine/core";
import { LockIcon } from "./icons.tsx";
import { Link, Navigate, useParams } from "@tanstack/react-router";
import { useEffect, useState } from "react";
import { useHash, useStaffEditing } from "../authoring/editing.ts";
import { CategoryStaffBar, ChallengeEditor, NewChallengeEditor } from "../authoring/lazy.tsx";
import { useMoveTile } from "../authoring/useMoveTile.ts";
import { useTranslation } from "../../lib/i18n.ts";
import { Markdown, preloadMarkdown } from "../../lib/Markdown.tsx";
import { useHydratingNow } from "../../lib/render-clock.ts";
import { errorCode } from "../../lib/trpc.ts";
import { PageFailedScreen } from "../../shell/ErrorScreen.tsx";
import { LoadingScreen } from "../../shell/LoadingScreen.tsx";
import { MissingRenderer } from "../../shell/MissingRenderer.tsx";
import { useAppData } from "../../shell/useAppData.ts";
import { useStaffView } from "../../shell/viewAsPlayer.ts";
import { ChallengeBody } from "./ChallengeBody.tsx";
import { ChallengesUnavailable } from "./EventGate.tsx";
import { categoryRenderer } from "./registry.tsx";
import { type CategoryView, findCategory, findChallenge, isFull } from "./types.ts";
import { UnlockHint } from "./UnlockHint.tsx";
import { useCampaignCategories } from "./useCategories.ts";
import "../authoring/texts.ts";

/** Unknown categories and challenges go to /404, which no route claims, so it shows the 404 page. */
const NOT_FOUND_PATH = "/404" as "/";

/** Loads the listing and hands it on, or shows loading, the gate's answer or the failure. */
export function WithCategories({ children }: { children: (categories: CategoryView[]) => React.ReactNode }) {
  const query = useCampaignCategories();
  if (query.isPending) return <LoadingScreen />;
  if (query.error) {
    if (errorCode(query.error) === "permission_denied") return <ChallengesUnavailable />;
    return <PageFailedScreen error={query.error} reset={() => void query.refetch()} />;
  }
  return <>{children(query.data)}</>;
}

/** Players without a team are told they need one to submit flags; staff run the event without one. */
export function TeamWarning() {
  const { t } = useTranslation();
  const { me } = useAppData();
  const staffView = useStaffView();
  if (!me || me.teamId !== null || staffView) return null;
  return (
    <Alert color="yellow" variant="light" data-testid="team-warning">
      {t("errors.team_required")}{" "}
      <Anchor component={Link} to="/welcome" c="inherit" fw={600} underline="always">
        {t("challenges.team_needed_action")}
      </Anchor>
    </Alert>
  );
}

/** /campaign/{tabId}: the category in its layout (a registered category type). */
export function CategoryPage() {
  const { tabId } = useParams({ strict: false }) as { tabId: string };
  return (
    <WithCategories>
      {(categories) => {
        const category = findCategory(categories, tabId);
        if (!category) return <Navigate to={NOT_FOUND_PATH} replace />;
        return <CategoryScreen category={category} />;
      }}
    </WithCategories>
  );
}

function CategoryScreen({ category }: { category: CategoryView }) {
  const { t } = useTranslation();
  const staff = useStaffView();
  const editing = useStaffEditing().editing && staff;
  const [showLocked, setShowLocked] = useState(true);
  const moveTile = useMoveTile(category);
  const Renderer = categoryRenderer(category.contained_type);
  return (
    <Stack gap="lg" maw={1200} mx="auto">
      <Stack gap={4}>
        <Anchor component={Link} to="/campaign" size="sm">
          ← {t("challenges.back_to_categories")}
        </Anchor>
        <Title order={1}>{category.name}</Title>
        {category.description && <Markdown>{category.description}</Markdown>}
      </Stack>
      {staff && <CategoryStaffBar category={category} editing={editing} showLocked={showLocked} onShowLocked={setShowLocked} />}
      <TeamWarning />
      {Renderer ? (
        <Renderer category={category} {...(editing && { editing: { showLocked, onMove: moveTile } })} />
      ) : (
        <MissingRenderer kind="category" type={category.contained_type} />
      )}
    </Stack>
  );
}

/** /campaign/{tabId}/{chalId}: one challenge on its own page. */
export function ChallengePage() {
  const { t } = useTranslation();
  const { tabId, chalId } = useParams({ strict: false }) as { tabId: string; chalId: string };
  const staff = useStaffView();
  const editing = useStaffEditing().editing && staff;
  const hash = useHash();
  // The description waits for the markdown renderer (ChallengeBody): fetch it with the data, unless
  // the server drew the page (its description is kept as drawn until it changes).
  const hydrating = useHydratingNow();
  const [hydrated] = useState(hydrating);
  useEffect(() => {
    if (!hydrated) void preloadMarkdown();
  }, [hydrated]);
  return (
    <WithCategories>
      {(categories) => {
        const category = findCategory(categories, tabId);
        if (category && staff && chalId === "new") {
          return (
            <Stack gap="md" maw={900} mx="auto">
              <NewChallengeEditor category={category} hash={hash} />
            </Stack>
          );
        }
        const challenge = category ? findChallenge(category, chalId) : undefined;
        if (!category || !challenge) return <Navigate to={NOT_FOUND_PATH} replace />;
        if (editing && isFull(challenge)) {
          return (
            <Stack gap="md" maw={900} mx="auto">
              <Anchor component={Link} to={`/campaign/${category.slug}`} hash="edit" size="sm">
                ← {category.name}
              </Anchor>
              <ChallengeEditor key={challenge.id} category={category} challenge={challenge} />
            </Stack>
          );
        }
        return (
          <Stack gap="md" maw={900} mx="auto">
            <Group justify="space-between">
              <Anchor component={Link} to={`/campaign/${category.slug}`} size="sm">
                ← {category.name}
              </Anchor>
              {staff && (
                <Button component={Link} to={`/campaign/${category.slug}/${chalId}`} hash="edit" variant="light" size="xs" data-testid="edit-challenge">
                  {t("editor.edit")}
                </Button>
              )}
            </Group>
            {isFull(challenge) ? (
              <Card withBorder radius="md" className="challenge-page-card" data-testid="challenge-card">
                <ChallengeBody challenge={challenge} />
              </Card>
            ) : (
              <Card withBorder radius="md" className="challenge-page-card">
                <Stack align="center" gap="sm" ta="center">
                  <ThemeIcon size={64} radius="xl" variant="light" color="gray">
                    <LockIcon size={32} />
                  </ThemeIcon>
                  <Title order={1}>{t("challenges.locked_tile")}</Title>
                  <UnlockHint expression={challenge.unlock_requirements} size="md" />
                  <Button component={Link} to={`/campaign/${category.slug}`} variant="light">
                    {t("challenges.back")}
                  </Button>
                </Stack>
              </Card>
            )}
          </Stack>
        );
      }}
    </WithCategories>
  );
}
