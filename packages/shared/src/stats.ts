/** A part of a whole as a percentage rounded to two decimals (the statistics charts); 0 of nothing is 0. */
export function percentOf(part: number, total: number): number {
  if (total <= 0) return 0;
  return Math.round((part / total) * 10_000) / 100;
}

/** Team point distribution as chart points, by ascending points. */
export function pointDistribution(distribution: Record<string, number>): { points: number; teams: number }[] {
  return Object.entries(distribution)
    .map(([points, teams]) => ({ points: Number(points), teams }))
    .sort((a, b) => a.points - b.points);
}
