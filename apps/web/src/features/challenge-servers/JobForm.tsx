import { JOB_DEFAULTS, JOB_LIMITS, MEMORY_UNITS, type MemoryUnit, memoryBytes, memoryInUnits } from "@flagship/shared";
import { Accordion, Button, Group, NativeSelect, PasswordInput, Select, SimpleGrid, Stack, Switch, Textarea, TextInput } from "@mantine/core";
import { notifications } from "@mantine/notifications";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useState } from "react";
import { useTranslation } from "../../lib/i18n.ts";
import { useTRPC } from "../../lib/trpc.ts";
import { fieldErrors } from "../auth/errors.ts";
import type { JobStatusView } from "./types.ts";
import "./texts.ts";

interface Values {
  challenge: string;
  name: string;
  port: string;
  replicas: string;
  memory: string;
  memoryUnit: MemoryUnit;
  cpus: string;
  image: string;
  username: string;
  password: string;
  dedicated: boolean;
  lifetime: string;
  warm: string;
  writable: boolean;
  flagEnv: string;
  env: string;
}

/** Form field -> the server's field path in `d`. */
const SERVER_FIELDS: Record<string, keyof Values> = {
  challenge_id: "challenge",
  "job_spec.name": "name",
  "job_spec.port": "port",
  "job_spec.replicas": "replicas",
  "job_spec.resources.memory": "memory",
  "job_spec.resources.cpus": "cpus",
  "job_spec.image": "image",
  "job_spec.registryAuth.username": "username",
  "job_spec.registryAuth.password": "password",
  "job_spec.lifetime": "lifetime",
  "job_spec.warm": "warm",
  "job_spec.flag_env": "flagEnv",
  "job_spec.env": "env",
};

/**
 * A new job's replicas: one shared container serves most challenges (the server's own default,
 * for clients that send none, stays the contract's 5).
 */
const NEW_JOB_REPLICAS = 1;

function initial(job: JobStatusView | undefined, challengeId: number | undefined): Values {
  const memory = memoryInUnits(job?.resources.memory ?? JOB_DEFAULTS.memory);
  return {
    challenge: challengeId ? String(challengeId) : job ? String(job.challenge_id) : "",
    name: job?.name ?? "",
    port: job ? String(job.port) : "",
    replicas: String(job?.replicas ?? NEW_JOB_REPLICAS),
    memory: memory.amount,
    memoryUnit: memory.unit,
    cpus: String(job?.resources.cpus ?? JOB_DEFAULTS.cpus),
    image: job?.image ?? "",
    username: "",
    password: "",
    dedicated: job?.dedicated ?? false,
    lifetime: String(job?.lifetime ?? JOB_DEFAULTS.lifetime),
    warm: String(job?.warm ?? JOB_DEFAULTS.warm),
    writable: job?.writable ?? false,
    flagEnv: job?.flag_env ?? "",
    env: job ? Object.entries(job.env).map(([k, v]) => `${k}=${v}`).join("\n") : "",
  };
}

function parseEnv(text: string): Record<string, string> | number {
  const env: Record<string, string> = {};
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? "").trim();
    if (line === "") continue;
    const eq = line.indexOf("=");
    if (eq <= 0) return i + 1;
    env[line.slice(0, eq).trim()] = line.slice(eq + 1);
  }
  return env;
}

/**
 * The job adder (staff spec): name, port, replicas, memory, cpus, image and registry credentials,
 * plus our extensions (dedicated instances, their lifetime, a writable root, environment).
 * Submitting an existing challenge's job replaces it with a rolling swap.
 */
export function JobForm({ challengeId, job, challenges, onDone }: { challengeId?: number; job?: JobStatusView; challenges?: { value: string; label: string }[]; onDone?: () => void }) {
  const { t } = useTranslation();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values>(() => initial(job, challengeId));
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((v) => ({ ...v, [key]: value }));
  const submit = useMutation(
    trpc.challengeServers.submitJob.mutationOptions({
      onSuccess: async () => {
        notifications.show({ color: "green", message: t("cserv.added") });
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.challengeServers.jobs.queryKey() }),
          queryClient.invalidateQueries({ queryKey: trpc.challenges.categories.queryKey() }),
        ]);
        onDone?.();
      },
      onError: (error) => {
        const fields = fieldErrors(error);
        const mapped: Partial<Record<keyof Values, string>> = {};
        for (const [path, message] of Object.entries(fields)) {
          const key = SERVER_FIELDS[path] ?? (path.startsWith("job_spec.env") ? "env" : undefined);
          if (key) mapped[key] = message;
        }
        setErrors(mapped);
        notifications.show({ color: "red", message: t("cserv.failed", { reason: Object.values(fields)[0] ?? error.message }) });
      },
    }),
  );

  const validate = (): Partial<Record<keyof Values, string>> => {
    const found: Partial<Record<keyof Values, string>> = {};
    const required = t("generic.required");
    for (const key of ["name", "port", "replicas", "memory", "cpus", "image", "challenge"] as const) if (values[key].trim() === "") found[key] = required;
    for (const key of ["port", "replicas", "lifetime", "warm"] as const) if (values[key].trim() !== "" && !/^\d+$/.test(values[key].trim())) found[key] = t("cserv.digits");
    if (values.memory.trim() !== "") {
      const bytes = memoryBytes(values.memory, values.memoryUnit);
      if (bytes === null) found.memory = t("cserv.decimal");
      else if (bytes < JOB_LIMITS.memory.min || bytes > JOB_LIMITS.memory.max) found.memory = t("cserv.memory_range");
    }
    if (values.cpus.trim() !== "" && !/^\d+(\.\d+)?$/.test(values.cpus.trim())) found.cpus = t("cserv.decimal");
    const env = parseEnv(values.env);
    if (typeof env === "number") found.env = t("cserv.env_line", { line: env });
    return found;
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const env = parseEnv(values.env) as Record<string, string>;
    const auth = values.username !== "" || values.password !== "" ? { registryAuth: { username: values.username, password: values.password } } : {};
    submit.mutate({
      challenge_id: Number(values.challenge),
      job_spec: {
        name: values.name.trim(),
        port: Number(values.port),
        replicas: Number(values.replicas),
        resources: { memory: memoryBytes(values.memory, values.memoryUnit) ?? 0, cpus: Number(values.cpus) },
        image: values.image.trim(),
        ...auth,
        env,
        dedicated: values.dedicated,
        lifetime: Number(values.lifetime),
        warm: values.dedicated && values.warm.trim() !== "" ? Number(values.warm) : 0,
        writable: values.writable,
        flag_env: values.dedicated ? values.flagEnv.trim() : "",
      },
    });
  };

  const text = (key: "name" | "port" | "replicas" | "memory" | "cpus" | "image" | "lifetime" | "warm", props: { description?: string; inputMode?: "numeric" | "decimal" } = {}) => (
    <TextInput
      label={t(`cserv.${key}`)}
      value={values[key]}
      onChange={(e) => set(key, e.currentTarget.value)}
      error={errors[key]}
      withAsterisk={key !== "lifetime" && key !== "warm"}
      {...(props.description && { description: props.description })}
      {...(props.inputMode && { inputMode: props.inputMode })}
      autoComplete="off"
    />
  );

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t("cserv.form_title")}>
      <Stack gap="sm">
        {challenges && (
          <Select label={t("cserv.challenge")} data={challenges} value={values.challenge || null} onChange={(v) => set("challenge", v ?? "")} searchable withAsterisk error={errors.challenge} />
        )}
        {text("name", { description: t("cserv.name_hint") })}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          {text("port", { description: t("cserv.port_hint"), inputMode: "numeric" })}
          {text("replicas", { inputMode: "numeric", description: t("cserv.replicas_hint") })}
          <TextInput
            label={t("cserv.memory")}
            description={t("cserv.memory_hint")}
            value={values.memory}
            onChange={(e) => {
              set("memory", e.currentTarget.value);
              setErrors(({ memory: _fixed, ...rest }) => rest);
            }}
            error={errors.memory}
            withAsterisk
            inputMode="decimal"
            autoComplete="off"
            rightSectionWidth={80}
            rightSection={
              <NativeSelect
                aria-label={t("cserv.memory_unit")}
                data={Object.keys(MEMORY_UNITS)}
                value={values.memoryUnit}
                onChange={(e) => {
                  set("memoryUnit", e.currentTarget.value as MemoryUnit);
                  setErrors(({ memory: _fixed, ...rest }) => rest);
                }}
                variant="unstyled"
                rightSectionWidth={20}
                styles={{ input: { fontWeight: 500, paddingInlineStart: 8, paddingInlineEnd: 22 } }}
              />
            }
          />
          {text("cpus", { inputMode: "decimal", description: t("cserv.cpus_hint") })}
        </SimpleGrid>
        {text("image")}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <TextInput label={t("cserv.registry_user")} value={values.username} onChange={(e) => set("username", e.currentTarget.value)} error={errors.username} autoComplete="off" />
          <PasswordInput
            label={t("cserv.registry_password")}
            value={values.password}
            onChange={(e) => set("password", e.currentTarget.value)}
            error={errors.password}
            autoComplete="new-password"
            {...(job?.has_registry_auth && { description: t("cserv.registry_keep") })}
          />
        </SimpleGrid>
        <Accordion variant="default" defaultValue={job && (job.dedicated || job.flag_env !== null || job.writable || Object.keys(job.env).length > 0) ? "advanced" : null}>
          <Accordion.Item value="advanced">
            <Accordion.Control>{t("cserv.advanced")}</Accordion.Control>
            <Accordion.Panel>
              <Stack gap="sm">
                <Switch label={t("cserv.dedicated")} description={t("cserv.dedicated_hint")} checked={values.dedicated} onChange={(e) => set("dedicated", e.currentTarget.checked)} />
                {values.dedicated && (
                  <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
                    {text("lifetime", { inputMode: "numeric" })}
                    {text("warm", { inputMode: "numeric", description: t("cserv.warm_hint") })}
                  </SimpleGrid>
                )}
                {values.dedicated && (
                  <TextInput
                    label={t("cserv.flag_env")}
                    description={t("cserv.flag_env_hint")}
                    value={values.flagEnv}
                    onChange={(e) => set("flagEnv", e.currentTarget.value)}
                    error={errors.flagEnv}
                    autoComplete="off"
                    styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }}
                  />
                )}
                <Switch label={t("cserv.writable")} description={t("cserv.writable_hint")} checked={values.writable} onChange={(e) => set("writable", e.currentTarget.checked)} />
                <Textarea label={t("cserv.env")} description={t("cserv.env_hint")} value={values.env} onChange={(e) => set("env", e.currentTarget.value)} error={errors.env} autosize minRows={2} styles={{ input: { fontFamily: "var(--mantine-font-family-monospace)" } }} />
              </Stack>
            </Accordion.Panel>
          </Accordion.Item>
        </Accordion>
        <Group justify="flex-end">
          <Button type="submit" loading={submit.isPending}>
            {t("cserv.submit")}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
