/** The REST objects the commands read (the staff view of GET /challenges/categories/ and the jobs list). */

export interface RemoteHint {
  id: number;
  name: string;
  penalty: number;
  text: string;
  /** Hints of the challenge to use first, by id; older servers leave it out. */
  requirements?: number[];
}

export interface RemoteFile {
  id: number;
  name: string;
  url: string;
  size: number;
}

export interface RemoteChallenge {
  id: number;
  name: string;
  description: string;
  challenge_type: string;
  challenge_metadata: Record<string, unknown>;
  flag_type: string;
  flag_metadata?: Record<string, unknown>;
  points_type: string;
  author: string;
  score: number;
  unlock_requirements: string;
  hints: RemoteHint[];
  files: RemoteFile[];
  hidden: boolean;
  maintenance: boolean;
  tags: { type: string; text: string }[];
  tiebreaker: boolean;
  post_score_explanation: string;
  attempt_limit?: number | null;
  /** The repository a sync made it from ("" when made otherwise); older servers leave it out. */
  source?: string;
  /** When players first see it (ISO-8601), or null; older servers leave it out. */
  scheduled_at?: string | null;
  /** The challenge suggested after a solve, by id; older servers leave it out. */
  next_challenge?: number | null;
}

export interface RemoteCategory {
  id: number;
  name: string;
  display_order: number;
  contained_type: string;
  description: string;
  challenges: RemoteChallenge[];
}

export interface RemoteJob {
  id: number;
  name: string;
  challenge_id: number;
  port: number;
  replicas: number;
  resources: { memory: number; cpus: number };
  image: string;
  env: Record<string, string>;
  dedicated: boolean;
  lifetime: number;
  flag_env: string | null;
}

/** Equal as JSON values, whatever the order of object keys. */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  }
  if (a && b && typeof a === "object" && typeof b === "object") {
    const ka = Object.keys(a).filter((k) => (a as Record<string, unknown>)[k] !== undefined);
    const kb = Object.keys(b).filter((k) => (b as Record<string, unknown>)[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return false;
}
