/** One well-known secret shape: its name (shown in the placeholder) and how to find it. */
interface SecretRule {
  name: string;
  pattern: RegExp;
  /** Which capture groups to keep around the placeholder (e.g. the `NAME=` of an assignment). */
  keep?: { before?: number; after?: number };
}

// Shapes with a distinctive prefix match anywhere (a model cannot hide one behind a letter);
// generic ones (`sk-…`, assignments) start where no letter or digit precedes them (an underscore
// separates, as in `tool_sk-…`). In serialized JSON a string may hold an escape (`\n`, `\t`, …)
// right before the secret: its letter does not count.
const LEFT = String.raw`(?:(?<![A-Za-z0-9])|(?<=\\[nrtbf]))`;
// White space, as plain text has it and as serialized JSON writes it (`\t`, `\n`, `\r` are escapes there).
const SPACE = String.raw`(?:\s|\\[nrt])`;
const AWS_PREFIXES = "AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA";
// Names that mark the value assigned to them as a secret (`DB_PASSWORD=…`, `api_key=…`, `ghToken=…`).
const SECRET_NAME =
  "[A-Za-z0-9_.-]*?(?:secrets?|token|passw(?:or)?d|passphrase|api[_-]?key|access[_-]?key(?:[_-]?id)?|private[_-]?key|credentials?|session[_-]?id|auth)";
// A value ends at white space, a quote that ends the JSON string, or shell punctuation.
const VALUE = String.raw`(?:\\"(?:[^"\\]|\\[^"])*\\"|'[^'\s]*'|(?:[^\s"\\'&;|,)]|\\[^nrtbfu"])+)`;

const rule = (name: string, source: string, flags = "g", keep?: SecretRule["keep"]): SecretRule => ({
  name,
  pattern: new RegExp(source, flags),
  ...(keep ? { keep } : {}),
});

/**
 * The shapes scrubbed from every record, most specific first. Sources: the providers' documented
 * token formats (AWS key ids, GitHub's `ghp_`/`github_pat_`, Slack's `xox?-`, Anthropic's
 * `sk-ant-`, OpenAI's `sk-`/`sk-proj-`, Stripe's `sk_live_`, Google's `AIza`, npm, GitLab,
 * Hugging Face), JWTs, PEM private-key blocks, credentials in URLs, bearer tokens and
 * `NAME=value` assignments whose name says secret.
 */
const RULES: readonly SecretRule[] = [
  rule(
    "private-key",
    String.raw`-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:[^"\\]|\\.)*?(?:-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----|(?=")|$)`,
  ),
  rule("aws-access-key", `(?:${AWS_PREFIXES})[A-Z0-9]{16}(?![A-Za-z0-9])`),
  rule("anthropic-key", `sk-ant-[A-Za-z0-9_-]{20,}`),
  rule("api-key", `${LEFT}sk-[A-Za-z0-9_-]{20,}`),
  rule("api-key", `${LEFT}(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}`),
  rule("github-token", `gh[pousr]_[A-Za-z0-9]{30,}`),
  rule("github-token", `github_pat_[A-Za-z0-9_]{20,}`),
  rule("gitlab-token", `glpat-[A-Za-z0-9_-]{20,}`),
  rule("slack-token", `xox[abposre]-[A-Za-z0-9-]{10,}`),
  rule("slack-webhook", String.raw`(?:https?://)?hooks\.slack\.com/services/[A-Za-z0-9/_-]{20,}`),
  rule("google-api-key", `AIza[0-9A-Za-z_-]{35}`),
  rule("npm-token", `npm_[A-Za-z0-9]{36}`),
  rule("huggingface-token", `hf_[A-Za-z0-9]{30,}`),
  rule("jwt", String.raw`eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*`),
  rule("url-credentials", String.raw`([a-z][a-z0-9+.-]{1,20}://)[^\s/"\\@:]+:[^\s/"\\@]+(@)`, "gi", {
    before: 1,
    after: 2,
  }),
  rule("bearer-token", String.raw`((?:\b|(?<=\\[nrtbf]))bearer${SPACE}+)[A-Za-z0-9._~+/-]{16,}=*`, "gi", { before: 1 }),
  rule("assignment", `${LEFT}(${SECRET_NAME}${SPACE}*=${SPACE}*)${VALUE}`, "gi", { before: 1 }),
];

// Cheap test first: a line with none of these substrings holds none of the shapes above.
const CANDIDATE =
  /[=@]|-----BEGIN|AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|AROA|APKA|ASCA|sk[-_]|rk_|gh[pousr]_|github_pat_|glpat-|xox|hooks\.slack|AIza|npm_|hf_|eyJ|[Bb][Ee][Aa][Rr][Ee][Rr]/;

/** The text that replaces a secret of shape `name`. */
export function secretPlaceholder(name: string): string {
  return `[REDACTED:${name}]`;
}

/**
 * Replaces every well-known secret shape in `text` with `[REDACTED:<shape>]`.
 * Contract: pure and total; works on plain text and on serialized JSON alike (it never matches
 * across a quote or cuts an escape in half, so valid JSON stays valid JSON); text without a
 * candidate substring is returned as is, at the cost of one scan.
 */
export function scrubSecrets(text: string): string {
  if (!CANDIDATE.test(text)) return text;
  let out = text;
  for (const { name, pattern, keep } of RULES) {
    pattern.lastIndex = 0;
    if (!pattern.test(out)) continue;
    pattern.lastIndex = 0;
    out = out.replace(pattern, (...match: unknown[]) => {
      const group = (n: number | undefined) => (n === undefined ? "" : String(match[n] ?? ""));
      return `${group(keep?.before)}${secretPlaceholder(name)}${group(keep?.after)}`;
    });
  }
  return out;
}
