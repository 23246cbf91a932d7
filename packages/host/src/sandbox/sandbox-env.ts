/**
 * Name parts that mark a variable as a credential (`OPENAI_API_KEY`, `GH_TOKEN`, `PGPASSWORD`,
 * `DB_PASS`, `GPG_PASSPHRASE`, `SSH_AUTH_SOCK`, `GITHUB_PAT`, `SENTRY_DSN`).
 */
const SECRET_PART = /(KEYS?|SECRETS?|TOKENS?|PASS|PASSWORD|PASSWD|PASSPHRASE|CREDENTIALS?|CREDS?|PWD|JWT|SESSIONID)$/i;
/** Whole name parts; `HEADERS` holds authorization headers (`OTEL_EXPORTER_OTLP_HEADERS=api-key=…`). */
const SECRET_WHOLE_PART = /^(AUTH|AUTHORIZATION|COOKIE|SESSION|PAT|DSN|PRIVATE|SIGNING|WEBHOOK|PW|BEARER|HEADERS?)$/i;
/** Names that hold a whole connection string (`AZURE_STORAGE_CONNECTION_STRING`, `..._CONNSTR`). */
const SECRET_NAME = /CONNECTION_?STRING|CONN_?STR/i;
/** The shell's own directory variables, which only look like `*_PWD` (`MYSQL_PWD`) names. */
const DIRECTORY_VARIABLES = new Set(["PWD", "OLDPWD"]);
/** A URL with a password in it (`postgres://user:pw@host/db`), whatever the variable is called. */
const URL_CREDENTIALS = /[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:[^/\s@]+@/i;
/**
 * Values that are credentials whatever the variable is called: a key inside a connection string,
 * a query, a header list or a libpq string (`AccountKey=`, `Password=`, `?password=`, `,api-key=`,
 * `password=` after a space), a URL signed or authorized in its query (`?sig=` of an Azure SAS,
 * `&X-Amz-Signature=`, `?access_token=`), a webhook URL (Slack, Discord, Teams: the URL is the
 * secret), an HTTP authorization (`Basic …`, `Bearer …`), a private key, and the shapes of
 * well-known tokens (AWS access keys, GitHub, GitLab, Slack, OpenAI/Anthropic-style `sk-`, Stripe,
 * Google, npm, Hugging Face, JWTs).
 */
const SECRET_VALUE =
  /(?:^|[;?&,\s])\s*(?:AccountKey|SharedAccessKey|Password|Passwd|Pwd|Pass|Secret|Token|Api[-_]?Key|x-api-key|Access_?Key)\s*=|[?&](?:sig|signature|access_token|auth|key|X-Amz-Signature|X-Amz-Credential|X-Goog-Signature|X-Goog-Credential)=|hooks\.slack\.com\/(?:services|workflows|triggers)\/|discord(?:app)?\.com\/api\/webhooks\/|\.webhook\.office\.com\/|\b(?:Basic|Bearer)\s+[A-Za-z0-9+/=._~-]{8,}|-----BEGIN [A-Z ]*PRIVATE KEY|\b(?:AKIA|ASIA)[A-Z0-9]{16}\b|\bgh[pousr]_[A-Za-z0-9]{20,}|\bgithub_pat_|\bglpat-|\bxox[abprs]-|\bsk-[A-Za-z0-9_-]{16,}|\b[rs]k_(?:live|test)_|\bAIza[0-9A-Za-z_-]{30,}|\bnpm_[A-Za-z0-9]{30,}|\bhf_[A-Za-z0-9]{30,}|\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/i;

/** True when an environment variable's name says it holds a credential. */
export function isSecretName(name: string): boolean {
  if (DIRECTORY_VARIABLES.has(name)) return false;
  // A number after a part keeps its meaning (`TOKEN2`, `STRIPE_KEY_2`).
  const parts = name.split("_").map((part) => part.replace(/\d+$/, ""));
  return SECRET_NAME.test(name) || parts.some((part) => SECRET_PART.test(part) || SECRET_WHOLE_PART.test(part));
}

/**
 * True when a variable holds a credential: by its name, or a value that is a URL with a
 * password, a connection string with a key, a private key or a well-known token shape.
 */
export function isSecretVariable(name: string, value: string | undefined): boolean {
  return isSecretName(name) || (value !== undefined && (URL_CREDENTIALS.test(value) || SECRET_VALUE.test(value)));
}

/** Where tools keep caches in the sandbox: the home is read-only there, the private /tmp is not. */
export const SANDBOX_CACHES: Readonly<Record<string, string>> = {
  XDG_CACHE_HOME: "/tmp/.cache",
  npm_config_cache: "/tmp/.cache/npm",
  // The user's temporary folder (a Nix shell's /tmp/nix-shell.x, ~/tmp) is hidden or read-only in
  // the sandbox, where `mktemp` and every compiler's scratch files would then fail.
  TMPDIR: "/tmp",
  TMP: "/tmp",
  TEMP: "/tmp",
  TEMPDIR: "/tmp",
};

/**
 * The environment a sandboxed command gets: the host's, without variables whose names mark them
 * as credentials (API keys, tokens, passwords, agent sockets) or whose values are URLs with a
 * password (`DATABASE_URL=postgres://u:pw@h/db`), and with caches (npm, and whatever
 * follows XDG_CACHE_HOME: pip, go build) and temporary files (`TMPDIR`, `TMP`, `TEMP`) in the
 * command's private /tmp, since the home is read-only.
 * The host needs the credentials to talk to its model provider; a command the model wrote does
 * not, and printing one would put it in the transcript.
 * Contract: a new object; `GIT_AUTHOR_NAME` and the like stay (only whole name parts count).
 */
export function sandboxEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (!isSecretVariable(name, value)) out[name] = value;
  return { ...out, ...SANDBOX_CACHES };
}
