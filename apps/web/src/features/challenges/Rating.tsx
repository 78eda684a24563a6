import { ActionIcon, Group, Text } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ratingPercent } from "@flagship/shared";
import { useTranslation } from "../../lib/i18n.ts";
import { Tip } from "../../lib/Tip.tsx";
import { useTRPC } from "../../lib/trpc.ts";
import { ThumbDownIcon, ThumbUpIcon } from "./icons.tsx";
import type { ChallengeView } from "./types.ts";

/** The rating as the positive share of votes (rounded to 0.1), with thumbs to vote once solved. */
export function Rating({ challenge, canVote, size = "md" }: { challenge: ChallengeView; canVote: boolean; size?: "md" | "lg" }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const vote = useMutation(
    trpc.challenges.vote.mutationOptions({
      onSuccess: (votes) => {
        // Update the listing at once; a refetch follows.
        queryClient.setQueryData(trpc.challenges.categories.queryKey(), (old) =>
          old?.map((category) => ({
            ...category,
            challenges: category.challenges.map((c) => (c.id === challenge.id ? { ...c, votes } : c)),
          })),
        );
        void queryClient.invalidateQueries({ queryKey: trpc.challenges.categories.queryKey() });
      },
      onError: () => notifications.show({ color: "red", message: t("challenges.vote_error") }),
    }),
  );
  const rating = ratingPercent(challenge.votes.positive, challenge.votes.negative);
  const self = challenge.votes.self;
  return (
    <Group gap="xs" wrap="nowrap">
      {canVote && (
        <>
          <Tip label={t("challenges.rate_up")}>
            <ActionIcon
              size={size}
              variant={self === true ? "filled" : "light"}
              color="green"
              aria-label={t("challenges.rate_up")}
              aria-pressed={self === true}
              loading={vote.isPending && vote.variables?.positive === true}
              onClick={() => vote.mutate({ challenge: challenge.id, positive: true })}
            >
              <ThumbUpIcon />
            </ActionIcon>
          </Tip>
          <Tip label={t("challenges.rate_down")}>
            <ActionIcon
              size={size}
              variant={self === false ? "filled" : "light"}
              color="red"
              aria-label={t("challenges.rate_down")}
              aria-pressed={self === false}
              loading={vote.isPending && vote.variables?.positive === false}
              onClick={() => vote.mutate({ challenge: challenge.id, positive: false })}
            >
              <ThumbDownIcon />
            </ActionIcon>
          </Tip>
        </>
      )}
      <Text size="sm" c="dimmed" data-testid="rating">
        {rating === null ? t("challenges.no_rating") : t("challenges.rating", { rating })}
      </Text>
    </Group>
  );
}
