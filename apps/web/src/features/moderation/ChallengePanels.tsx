import { lazy, Suspense } from "react";
import { InstancePanel } from "../challenge-servers/InstancePanel.tsx";
import type { ChallengeView } from "../challenges/types.ts";
import { useStaffView } from "../../shell/viewAsPlayer.ts";

const ChallengeStaffTools = lazy(() => import("./ChallengeStaffTools.tsx").then((m) => ({ default: m.ChallengeStaffTools })));

/**
 * The challenge page's lazily loaded cards: the challenge server's, and for staff the staff tools
 * (test a flag, mark solved), in a chunk of their own that players never load. One lazy import on
 * the page for both keeps the page's first load within its budget.
 */
export function ChallengePanels({ challenge }: { challenge: ChallengeView }) {
  const staff = useStaffView();
  return (
    <>
      <InstancePanel challenge={challenge} />
      {staff && (
        <Suspense fallback={null}>
          <ChallengeStaffTools challengeId={challenge.id} challengeName={challenge.name} />
        </Suspense>
      )}
    </>
  );
}
