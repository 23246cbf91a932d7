import { describe, expect, it } from "vitest";
import { GatehouseError } from "../../../src/common/errors.ts";
import {
  listConfiguredProviders,
  parseModelSpec,
  resolveProviderOptions,
} from "../../../src/model/providers/model-spec.ts";

function usageError(run: () => unknown): GatehouseError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatehouseError && error.code === "GH_USAGE") return error;
    throw error;
  }
  throw new Error("expected a GH_USAGE error");
}

describe("parseModelSpec", () => {
  it("splits at the first colon, so model tags keep theirs", () => {
    expect(parseModelSpec("openai:gpt-4.1")).toEqual({ provider: "openai", model: "gpt-4.1" });
    expect(parseModelSpec("openai-compatible:qwen2.5-coder:7b")).toEqual({
      provider: "openai-compatible",
      model: "qwen2.5-coder:7b",
    });
  });

  it("rejects malformed specs and unknown providers with GH_USAGE naming what is accepted", () => {
    expect(usageError(() => parseModelSpec("gpt-4.1")).message).toBe(
      'Invalid model "gpt-4.1": expected provider:model, e.g. openai:gpt-4.1, anthropic:claude-sonnet-4-5 or openai-compatible:qwen2.5-coder:7b.',
    );
    expect(usageError(() => parseModelSpec("openai:")).message).toMatch(/^Invalid model "openai:"/);
    expect(usageError(() => parseModelSpec("mistral:large")).message).toBe(
      'Unknown provider "mistral" in "mistral:large": use one of openai, anthropic, openai-compatible.',
    );
  });
});

describe("resolveProviderOptions", () => {
  it("takes the key and base URL from the conventional variables", () => {
    const env = { OPENAI_API_KEY: "sk-o", OPENAI_BASE_URL: "https://proxy.test/v1", ANTHROPIC_API_KEY: "sk-a" };
    expect(resolveProviderOptions({ spec: "openai:gpt-4.1", env })).toEqual({
      provider: "openai",
      model: "gpt-4.1",
      apiKey: "sk-o",
      baseURL: "https://proxy.test/v1",
    });
    expect(resolveProviderOptions({ spec: "anthropic:claude-sonnet-4-5", env })).toEqual({
      provider: "anthropic",
      model: "claude-sonnet-4-5",
      apiKey: "sk-a",
    });
  });

  it("lets the flag beat settings and settings beat the environment", () => {
    const env = { OPENAI_API_KEY: "sk-o", OPENAI_BASE_URL: "https://env.test/v1" };
    const settings = { model: "openai:gpt-4.1-mini", baseURL: "https://settings.test/v1", maxRetries: 5 };
    expect(resolveProviderOptions({ env, settings })).toMatchObject({
      model: "gpt-4.1-mini",
      baseURL: "https://settings.test/v1",
      maxRetries: 5,
    });
    expect(
      resolveProviderOptions({ spec: "openai:gpt-4.1", baseURL: "https://flag.test/v1", env, settings }),
    ).toMatchObject({ model: "gpt-4.1", baseURL: "https://flag.test/v1" });
  });

  it("reports a missing key by its variable, without printing any key", () => {
    const env = { ANTHROPIC_API_KEY: "sk-ant-secret" };
    const error = usageError(() => resolveProviderOptions({ spec: "openai:gpt-4.1", env }));
    expect(error.message).toBe("No API key for openai: set OPENAI_API_KEY.");
    expect(usageError(() => resolveProviderOptions({ env })).message).toMatch(/^No model given: pass --model/);
  });

  it("needs no key for openai-compatible but needs a base URL", () => {
    expect(
      resolveProviderOptions({ spec: "openai-compatible:llama3", baseURL: "http://localhost:11434/v1", env: {} }),
    ).toEqual({ provider: "openai-compatible", model: "llama3", baseURL: "http://localhost:11434/v1" });
    expect(usageError(() => resolveProviderOptions({ spec: "openai-compatible:llama3", env: {} })).message).toMatch(
      /^openai-compatible needs a base URL: pass --base-url or set OPENAI_COMPATIBLE_BASE_URL/,
    );
  });
});

describe("listConfiguredProviders", () => {
  it("says which providers have keys without revealing them or URL credentials", () => {
    const env = {
      OPENAI_API_KEY: "sk-very-secret",
      OPENAI_COMPATIBLE_BASE_URL: "http://user:pw@localhost:8080/v1",
    };
    const listed = listConfiguredProviders(env);
    expect(listed.map((p) => [p.provider, p.hasKey, p.ready])).toEqual([
      ["openai", true, true],
      ["anthropic", false, false],
      ["openai-compatible", false, true],
    ]);
    expect(listed[2]?.baseURL).toBe("http://localhost:8080/v1");
    expect(JSON.stringify(listed)).not.toContain("sk-very-secret");
    expect(JSON.stringify(listed)).not.toContain("pw@");
  });
});
