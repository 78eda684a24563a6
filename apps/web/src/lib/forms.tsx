import { Alert, Box, type BoxProps } from "@mantine/core";
import { type FormValidateInput, useForm, type UseFormReturnType } from "@mantine/form";
import { notifications } from "@mantine/notifications";
import { useMutation } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { errorText, fieldErrors } from "../features/auth/errors.ts";

export interface ServerFormOptions<Values extends Record<string, unknown>, Result> {
  initialValues: Values;
  /** Client checks, run before anything is sent. */
  validate?: FormValidateInput<Values>;
  /** The call; it receives the form's values. */
  submit: (values: Values) => Promise<Result>;
  /** Toast on success (the spec's text). */
  success?: string | ((result: Result, values: Values) => string);
  /** Toast on failure, followed by the error's text (e.g. 'Failed to update config'). */
  failure?: string;
  /** Server field names that differ from the form's (`{value: "event_name"}`). */
  fieldNames?: Record<string, string>;
  onSuccess?: (result: Result, values: Values) => unknown;
}

export interface ServerForm<Values extends Record<string, unknown>, Result> {
  form: UseFormReturnType<Values>;
  /** The form's onSubmit: validates, sends, and spreads the server's `d` over the fields. */
  onSubmit: (event?: React.FormEvent<HTMLFormElement>) => void;
  /** Sends the form's values with some replaced (a quick action), without the client checks. */
  submitWith: (values: Partial<Values>) => void;
  pending: boolean;
  /** A failure no field can show (no `d`, or `d` names no field of this form). */
  formError: string | null;
  lastResult: Result | undefined;
}

/**
 * The one form pattern of the app: Mantine form state, one call, the server's field errors (`d`)
 * beside the fields they name, anything else above the form, and the spec's toasts.
 */
export function useServerForm<Values extends Record<string, unknown>, Result = unknown>(options: ServerFormOptions<Values, Result>): ServerForm<Values, Result> {
  const form = useForm<Values>({ mode: "controlled", initialValues: options.initialValues, validate: options.validate });
  const mutation = useMutation<Result, unknown, Values>({
    mutationFn: options.submit,
    onSuccess: async (result, values) => {
      form.resetDirty(values);
      if (options.success) {
        const message = typeof options.success === "function" ? options.success(result, values) : options.success;
        notifications.show({ color: "green", message });
      }
      await options.onSuccess?.(result, values);
    },
    onError: (error) => {
      const fields = mapFieldErrors(error, options.initialValues, options.fieldNames);
      form.setErrors(fields);
      if (options.failure) notifications.show({ color: "red", message: `${options.failure}: ${errorText(error)}` });
    },
  });
  const fields = mutation.isError ? mapFieldErrors(mutation.error, options.initialValues, options.fieldNames) : {};
  const formError = mutation.isError && Object.keys(fields).length === 0 ? errorText(mutation.error) : null;
  return {
    form,
    onSubmit: form.onSubmit((values) => mutation.mutate(values)),
    submitWith: (values) => {
      form.setValues(values);
      mutation.mutate({ ...form.getValues(), ...values });
    },
    pending: mutation.isPending,
    formError,
    lastResult: mutation.data,
  };
}

/** The server's field errors keyed by the form's field names; fields the form lacks are dropped. */
export function mapFieldErrors(error: unknown, values: Record<string, unknown>, names: Record<string, string> = {}): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [field, message] of Object.entries(fieldErrors(error))) {
    const name = names[field] ?? field;
    if (Object.hasOwn(values, name)) out[name] = message;
  }
  return out;
}

/** The form element of a server form: no browser validation bubbles, the form-level error on top. */
export function ServerFormBox<Values extends Record<string, unknown>, Result>({
  server,
  children,
  ...box
}: { server: ServerForm<Values, Result>; children: ReactNode } & BoxProps) {
  return (
    <Box component="form" onSubmit={server.onSubmit} noValidate {...box}>
      {server.formError && (
        <Alert color="red" role="alert" mb="md">
          {server.formError}
        </Alert>
      )}
      {children}
    </Box>
  );
}
