import { uniqueName } from "@flagship/db/testing";
import type { TestWorld } from "../testing/index.ts";

/**
 * Arranges teams, challenges and scoring rows directly in the database for team and profile
 * tests. Solves and score records are written the way the scoring code keeps them: user and team
 * totals raised in step, one score record per change.
 */
export async function seedTeam(world: TestWorld, options: { ownerId?: number | null; name?: string; password?: string; isVisible?: boolean } = {}) {
  const team = await world.services.db.team.create({
    data: {
      name: options.name ?? uniqueName("team"),
      password: options.password ?? "team-secret-1",
      ownerId: options.ownerId ?? null,
      isVisible: options.isVisible ?? true,
    },
    select: { id: true, name: true, password: true },
  });
  if (options.ownerId) await world.services.db.user.update({ where: { id: options.ownerId }, data: { teamId: team.id } });
  return team;
}

export async function seedChallenge(world: TestWorld, options: { categoryId?: number; name?: string; score?: number; hidden?: boolean } = {}) {
  const categoryId =
    options.categoryId ?? (await world.services.db.category.create({ data: { name: uniqueName("Category") }, select: { id: true } })).id;
  return world.services.db.challenge.create({
    data: {
      categoryId,
      name: options.name ?? uniqueName("Challenge"),
      score: options.score ?? 100,
      currentScore: options.score ?? 100,
      hidden: options.hidden ?? false,
      flagMetadata: { flag: "flag{secret}" },
    },
    select: { id: true, name: true, categoryId: true, score: true },
  });
}

export async function seedCategory(world: TestWorld, name = uniqueName("Category")) {
  return world.services.db.category.create({ data: { name }, select: { id: true, name: true } });
}

export async function seedSolve(
  world: TestWorld,
  options: { userId: number; teamId: number; challengeId: number; points?: number; penalty?: number; at?: Date },
) {
  const points = options.points ?? 100;
  const penalty = options.penalty ?? 0;
  const worth = Math.max(points - penalty, 0);
  const at = options.at ?? new Date();
  const db = world.services.db;
  const solve = await db.solve.create({
    data: { userId: options.userId, teamId: options.teamId, challengeId: options.challengeId, points, penalty, timestamp: at },
    select: { id: true },
  });
  await db.user.update({ where: { id: options.userId }, data: { points: { increment: worth }, leaderboardPoints: { increment: worth } } });
  await db.team.update({ where: { id: options.teamId }, data: { points: { increment: worth }, leaderboardPoints: { increment: worth } } });
  await db.scoreRecord.create({
    data: { userId: options.userId, teamId: options.teamId, solveId: solve.id, reason: "solve", points: worth, timestamp: at },
  });
  return solve;
}

export async function seedIncorrectAttempt(world: TestWorld, options: { userId: number; teamId: number; challengeId: number }) {
  return world.services.db.incorrectAttempt.create({ data: { ...options, flag: "flag{wrong}" }, select: { id: true } });
}
