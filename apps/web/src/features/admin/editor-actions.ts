import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import { errorText } from "../auth/errors.ts";

/**
 * One button of a staff editor (remove from team, delete, hand over ownership): on success a green
 * notice saying `success(result)`, then `after` (refresh the lists, close the editor); on failure
 * the server's message in red.
 */
export function useEditorAction<TVariables, TResult>(run: (variables: TVariables) => Promise<TResult>, success: (result: TResult) => string, after: () => Promise<void> | void) {
  return useMutation({
    mutationFn: run,
    onSuccess: async (result) => {
      notifications.show({ color: "green", message: success(result) });
      await after();
    },
    onError: (error) => notifications.show({ color: "red", message: errorText(error) }),
  });
}

/** What a staff editor saves: only the fields whose values differ from those it opened with. */
export function changedFields<T extends Record<string, unknown>>(initial: T, values: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([key, value]) => value !== initial[key]));
}
