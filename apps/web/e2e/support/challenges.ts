import type { APIRequestContext } from "@playwright/test";
import { database, seedUser, type SeededUser, unique } from "./db.ts";

/** Arranging the game: teams straight in the database, categories and challenges through the staff API. */

export async function seedTeam(size = 1): Promise<{ id: number; name: string; members: SeededUser[] }> {
  const name = unique("Team ");
  const { rows } = await database().query<{ id: number }>(`INSERT INTO teams (name, password) VALUES ($1, 'team-secret-1') RETURNING id`, [name]);
  const id = rows[0]!.id;
  const members: SeededUser[] = [];
  for (let i = 0; i < size; i++) members.push(await seedUser({ teamId: id }));
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
