import type { JobStatusView, LiveWorker, TierOverview } from "@flagship/api";

export type { JobStatusView, LiveWorker, TierOverview };
