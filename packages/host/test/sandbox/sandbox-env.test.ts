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
    ]) {
      expect(isSecretName(name), name).toBe(true);
    }
    for (const name of ["PATH", "HOME", "GIT_AUTHOR_NAME", "LANG", "TERM", "GATEHOUSE_HOME", "NODE_OPTIONS"]) {
      expect(isSecretName(name), name).toBe(false);
    }
    const env = sandboxEnv({ PATH: "/usr/bin", OPENAI_API_KEY: "sk-x", HOME: "/home/me" });
    expect(env.OPENAI_API_KEY).toBeUndefined();
    expect(env).toMatchObject({ PATH: "/usr/bin", HOME: "/home/me" });
  });

  it("points caches at the private /tmp, since the home is read-only in the sandbox", () => {
    expect(sandboxEnv({ XDG_CACHE_HOME: "/home/me/.cache" })).toMatchObject({
      XDG_CACHE_HOME: "/tmp/.cache",
      npm_config_cache: "/tmp/.cache/npm",
    });
  });
});
