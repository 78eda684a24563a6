import type { Prisma } from "@flagship/db";
import { invalidateCatalog } from "./catalog.ts";
import { createUser, type TestUser, type TestWorld, uniqueName } from "../testing/index.ts";

/** Test data for the challenge domain: teams with members, categories and challenges. */

export interface TestTeam {
  id: number;
  name: string;
  members: TestUser[];
}

export async function createTeamWith(world: TestWorld, size = 1): Promise<TestTeam> {
  const name = uniqueName("team");
  const team = await world.services.db.team.create({ data: { name, password: "team-secret-1" }, select: { id: true } });
  const members: TestUser[] = [];
  for (let i = 0; i < size; i++) members.push(await createUser(world, { teamId: team.id }));
  await world.services.db.team.update({ where: { id: team.id }, data: { ownerId: members[0]?.id ?? null } });
  return { id: team.id, name, members };
}

export async function createCategory(world: TestWorld, data: Partial<Prisma.CategoryUncheckedCreateInput> = {}): Promise<{ id: number; name: string }> {
  const category = await world.services.db.category.create({ data: { name: uniqueName("Category "), ...data }, select: { id: true, name: true } });
  await invalidateCatalog(world.services);
  return category;
}

export async function createChallenge(
  world: TestWorld,
  categoryId: number,
  data: Partial<Prisma.ChallengeUncheckedCreateInput> & { hints?: { name: string; penalty: number; text: string }[] } = {},
): Promise<{ id: number; name: string }> {
  const { hints, ...rest } = data;
  const score = rest.score ?? 100;
  const challenge = await world.services.db.challenge.create({
    data: {
      categoryId,
      name: uniqueName("Challenge "),
      flagType: "plaintext",
      flagMetadata: { flag: "flag{right}" },
      score,
      currentScore: score,
      ...rest,
      ...(hints && { hints: { create: hints } }),
    },
    select: { id: true, name: true },
  });
  await invalidateCatalog(world.services);
  return challenge;
}
