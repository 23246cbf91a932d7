import { describe, expect, it } from "vitest";
import { isSecretName, sandboxEnv } from "../../src/sandbox/sandbox-env.ts";

describe("the sandbox's environment", () => {
  it("drops variables whose names mark credentials, keeps the rest", () => {
    for (const name of [
      "OPENAI_API_KEY",
      "ANTHROPIC_API_KEY",
      "GH_TOKEN",
      "AWS_SECRET_ACCESS_KEY",
      "PGPASSWORD",
      "SSH_AUTH_SOCK",
      "NPM_TOKEN",
      "DB_PASS",
      "GPG_PASSPHRASE",
      "GITHUB_PAT",
      "SENTRY_DSN",
      "MYSQL_PWD",
      "STRIPE_SECRETS",
      "AZURE_STORAGE_CONNECTION_STRING",
      "SERVICE_BUS_CONNSTR",
      "APP_PRIVATE_KEYS",
      "CI_JOB_JWT",
      "DB_PW",
      "BEARER",
      "SESSIONID",
      "TOKEN2",
      "STRIPE_KEY2",
      "API_CREDS",
      "HTTP_AUTHORIZATION",
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of [
      "PATH",
      "HOME",
      "PWD",
      "OLDPWD",
      "GIT_AUTHOR_NAME",
      "LANG",
      "TERM",
      "GATEHOUSE_HOME",
      "NODE_OPTIONS",
    ]) {
      expect(isSecretName(name), name).toBe(false);
    }
    const env = sandboxEnv({ PATH: "/usr/bin", OPENAI_API_KEY: "sk-x", HOME: "/home/me" });
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(env).toMatchObject({ PATH: "/usr/bin", HOME: "/home/me" });
  });

  it("drops URLs with a password whatever the variable is called, keeps URLs without one", () => {
    const env = sandboxEnv({
      DATABASE_URL: "postgres://app:s3cret@db.internal:5432/app",
      REDIS: "redis://:hunter2@cache:6379",
      HTTPS_PROXY: "http://user:pw@proxy:3128",
      UPSTREAM: "https://example.com/path?a=b",
      MIRROR: "https://user@example.com/repo.git",
    });
    expect(env.DATABASE_URL).toBeUndefined();
    expect(env.REDIS).toBeUndefined();
    expect(env.HTTPS_PROXY).toBeUndefined();
    expect(env).toMatchObject({
      UPSTREAM: "https://example.com/path?a=b",
      MIRROR: "https://user@example.com/repo.git",
    });
  });

  it("drops values that are credentials whatever the variable is called", () => {
    const env = sandboxEnv({
      STORAGE: "DefaultEndpointsProtocol=https;AccountName=a;AccountKey=s3cret;EndpointSuffix=core.windows.net",
      MSSQL: "Server=db;Database=app;User Id=sa;Password=s3cret;",
      DEPLOY: "-----BEGIN OPENSSH PRIVATE KEY-----\nabc",
      AWS_ID: "AKIAIOSFODNN7EXAMPLE",
      GHX: "ghp_0123456789abcdefghijABCDEFGHIJ012345",
      LLM: "sk-ant-api03-0123456789abcdef",
      CI_TOKENISH: "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.sig",
      JDBC: "jdbc:postgresql://db/app?user=app&password=hunter2",
      PG: "host=db user=app password=hunter2",
      HEADER: "Basic YXBwOmh1bnRlcjI=",
      NODE_ENV: "production",
      EDITOR: "vim",
    });
    for (const name of ["STORAGE", "MSSQL", "DEPLOY", "AWS_ID", "GHX", "LLM", "CI_TOKENISH", "JDBC", "PG", "HEADER"]) {
      expect(env[name], name).toBeUndefined();
    }
    expect(env).toMatchObject({ NODE_ENV: "production", EDITOR: "vim" });
  });

  it("drops header lists, signed URLs and webhook URLs, whose value is the credential", () => {
    const env = sandboxEnv({
      OTEL_EXPORTER_OTLP_HEADERS: "x-honeycomb-team=abcdef0123456789",
      COLLECTOR: "service=app,api-key=abcdef0123456789",
      BLOB_URL: "https://acct.blob.core.windows.net/c?sv=2022-11-02&ss=b&sig=abcdEFGH1234%2B%3D",
      S3_GET:
        "https://b.s3.amazonaws.com/o?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIA%2F&X-Amz-Signature=ab12",
      HOOK_ENDPOINT: "https://api.example.com/hook?access_token=abcd1234efgh5678",
      SLACK_NOTIFY: "https://hooks.slack.com/services/T00000000/B00000000/XXXXXXXXXXXXXXXXXXXXXXXX",
      DISCORD_NOTIFY: "https://discord.com/api/webhooks/123456789/abcdefghijklmnop",
      UPSTREAM: "https://example.com/path?a=b&page=2",
      LS_COLORS: "rs=0:di=01;34:*.key=01;31:*.tar=01;31",
    });
    for (const name of [
      "OTEL_EXPORTER_OTLP_HEADERS",
      "COLLECTOR",
      "BLOB_URL",
      "S3_GET",
      "HOOK_ENDPOINT",
      "SLACK_NOTIFY",
      "DISCORD_NOTIFY",
    ]) {
      expect(env[name], name).toBeUndefined();
    }
    expect(env).toMatchObject({ UPSTREAM: "https://example.com/path?a=b&page=2", LS_COLORS: expect.any(String) });
  });

  it("points caches at the private /tmp, since the home is read-only in the sandbox", () => {
    expect(sandboxEnv({ XDG_CACHE_HOME: "/home/me/.cache" })).toMatchObject({
      XDG_CACHE_HOME: "/tmp/.cache",
      npm_config_cache: "/tmp/.cache/npm",
    });
  });

  it("points temporary files at the private /tmp: the user's TMPDIR is hidden or read-only in the sandbox", () => {
    expect(sandboxEnv({ TMPDIR: "/tmp/nix-shell.abc", TMP: "/home/me/tmp", TEMP: "/x" })).toMatchObject({
      TMPDIR: "/tmp",
      TMP: "/tmp",
      TEMP: "/tmp",
      TEMPDIR: "/tmp",
    });
  });
});
