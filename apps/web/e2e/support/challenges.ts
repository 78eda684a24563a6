import type { APIRequestContext } from "@playwright/test";
import { database, seedUser, type SeededUser, unique } from "./db.ts";

/** Arranging the game: teams straight in the database, categories and challenges through the staff API. */

/** A team of `size` verified members (or one per name in `usernames`), the first its owner. */
export async function seedTeam(
  size = 1,
  options: { name?: string; usernames?: string[] } = {},
): Promise<{ id: number; name: string; members: SeededUser[] }> {
  const name = options.name ?? unique("Team ");
  const { rows } = await database().query<{ id: number }>(`INSERT INTO teams (name, password) VALUES ($1, 'team-secret-1') RETURNING id`, [name]);
  const id = rows[0]!.id;
  const members: SeededUser[] = [];
  const usernames = options.usernames ?? Array.from({ length: size }, () => undefined);
  for (const username of usernames) members.push(await seedUser({ teamId: id, username }));
  await database().query(`UPDATE teams SET owner_id = $1 WHERE id = $2`, [members[0]!.id, id]);
  return { id, name, members };
}

async function post<T>(request: APIRequestContext, staff: SeededUser, path: string, body: unknown): Promise<T> {
  const response = await request.post(`/api/v2${path}`, { headers: { authorization: `Token ${staff.token}` }, data: body });
  const json = (await response.json()) as { s: boolean; d: T; m: string };
  if (!json.s) throw new Error(`${path} failed: ${json.m} ${JSON.stringify(json.d)}`);
  return json.d;
}

export function seedCategory(request: APIRequestContext, staff: SeededUser, body: Record<string, unknown>) {
  return post<{ id: number; slug: string; name: string }>(request, staff, "/challenges/categories/", body);
}

export function seedChallenge(request: APIRequestContext, staff: SeededUser, body: Record<string, unknown>) {
  return post<{ id: number; slug: string; name: string; hints: { id: number }[] }>(request, staff, "/challenges/", body);
}
