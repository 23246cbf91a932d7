/** Name parts that mark a variable as a credential (`OPENAI_API_KEY`, `GH_TOKEN`, `PGPASSWORD`, `SSH_AUTH_SOCK`). */
const SECRET_PART = /(KEY|SECRET|TOKEN|PASSWORD|PASSWD|CREDENTIALS?)$/i;
const SECRET_WHOLE_PART = /^(AUTH|COOKIE|SESSION)$/i;

/** True when an environment variable's name says it holds a credential. */
export function isSecretName(name: string): boolean {
  return name.split("_").some((part) => SECRET_PART.test(part) || SECRET_WHOLE_PART.test(part));
}

/** Where tools keep caches in the sandbox: the home is read-only there, the private /tmp is not. */
export const SANDBOX_CACHES: Readonly<Record<string, string>> = {
  XDG_CACHE_HOME: "/tmp/.cache",
  npm_config_cache: "/tmp/.cache/npm",
};

/**
 * The environment a sandboxed command gets: the host's, without variables whose names mark them
 * as credentials (API keys, tokens, passwords, agent sockets), and with caches (npm, and whatever
 * follows XDG_CACHE_HOME: pip, go build) in the command's private /tmp, since the home is read-only.
 * The host needs the credentials to talk to its model provider; a command the model wrote does
 * not, and printing one would put it in the transcript.
 * Contract: a new object; `GIT_AUTHOR_NAME` and the like stay (only whole name parts count).
 */
export function sandboxEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (!isSecretName(name)) out[name] = value;
  return { ...out, ...SANDBOX_CACHES };
}
