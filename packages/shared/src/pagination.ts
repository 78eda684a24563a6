import { z } from "zod";
import { PAGINATION } from "./constants.ts";

/** `?limit=&offset=` with the contract's default of 100 and clamp at 1000. */
export const ZPageInput = z.object({
  limit: z.coerce.number().int().min(1).catch(PAGINATION.defaultLimit).transform((n) => Math.min(n, PAGINATION.maxLimit)),
  offset: z.coerce.number().int().min(0).catch(0),
});
export type PageInput = z.infer<typeof ZPageInput>;

export interface Page<T> {
  count: number;
  total: number;
  results: T[];
}
