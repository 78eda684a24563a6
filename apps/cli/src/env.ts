/**
 * The settings the command reads from its environment: the server and the token. Docker's own
 * settings (DOCKER_HOST...) are the docker command's, passed on to it as they are.
 */
export interface CliEnv {
  FLAGSHIP_URL?: string;
  FLAGSHIP_TOKEN?: string;
}

export function readEnv(): CliEnv {
  const { FLAGSHIP_URL, FLAGSHIP_TOKEN } = process.env;
  return { ...(FLAGSHIP_URL && { FLAGSHIP_URL }), ...(FLAGSHIP_TOKEN && { FLAGSHIP_TOKEN }) };
}

/** The environment the docker command runs with: ours, with the classic builder's step output. */
export function dockerEnv(): NodeJS.ProcessEnv {
  return { ...process.env, DOCKER_BUILDKIT: "0" };
}
