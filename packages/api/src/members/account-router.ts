import type { DeleteAccountInput, NotificationPreferences, UpdateSelfInput } from "@flagship/shared";
import { authedProcedure, router } from "../trpc.ts";
import { deleteAccount } from "./delete-account.ts";
import { getSelf } from "./get-self.ts";
import { getNotificationPreferences, updateNotificationPreferences } from "./notifications.ts";
import { updateSelf } from "./update-self.ts";

// Inputs are validated by the domain functions, so both transports give the same field codes.
const typed = <T>() => (value: unknown) => value as T;

/** The signed-in user's own account: profile, username, notification preferences, deletion. */
export const accountRouter = router({
  self: authedProcedure.query(({ ctx }) => getSelf(ctx)),
  update: authedProcedure.input(typed<UpdateSelfInput>()).mutation(({ ctx, input }) => updateSelf(ctx, input)),
  notifications: authedProcedure.query(({ ctx }) => getNotificationPreferences(ctx)),
  setNotifications: authedProcedure
    .input(typed<Partial<NotificationPreferences>>())
    .mutation(({ ctx, input }) => updateNotificationPreferences(ctx, input)),
  delete: authedProcedure.input(typed<DeleteAccountInput>()).mutation(({ ctx, input }) => deleteAccount(ctx, input)),
});
