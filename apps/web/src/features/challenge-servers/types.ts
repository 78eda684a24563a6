import type { JobStatusView, LiveWorker } from "@flagship/api";

export type { JobStatusView, LiveWorker };
