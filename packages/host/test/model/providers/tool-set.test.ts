import { defineTool } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { GatehouseError } from "../../../src/common/errors.ts";
import { createProviderModel } from "../../../src/model/providers/create-provider-model.ts";
import { parametersSchema, toToolSet } from "../../../src/model/providers/tool-set.ts";

const greet = defineTool({
  name: "greet",
  description: "Greets someone.",
  parameters: z.object({ name: z.string(), times: z.number().int().default(1) }),
  execute: () => ({ content: [] }),
});

describe("toToolSet", () => {
  it("passes the zod input schema without $schema, fields with defaults optional", () => {
    expect(parametersSchema(greet)).toEqual({
      type: "object",
      properties: {
        name: { type: "string" },
        times: { type: "integer", default: 1, minimum: expect.any(Number), maximum: expect.any(Number) },
      },
      required: ["name"],
    });
  });

  it("builds each definition's SDK tool once and gives it no execute", () => {
    const first = toToolSet([greet]);
    const second = toToolSet([greet]);
    expect(second.greet).toBe(first.greet);
    expect(first.greet?.execute).toBeUndefined();
    expect(first.greet?.description).toBe("Greets someone.");
    const copy = { ...greet };
    expect(toToolSet([copy]).greet).not.toBe(first.greet);
  });
});

describe("createProviderModel", () => {
  it("names the model provider:model", () => {
    const model = createProviderModel({ provider: "anthropic", model: "claude-sonnet-4-5", apiKey: "k" });
    expect(model.id).toBe("anthropic:claude-sonnet-4-5");
  });

  it("rejects options that can never work with GH_USAGE", () => {
    const attempt = (run: () => unknown) => {
      try {
        run();
      } catch (error) {
        return error instanceof GatehouseError ? `${error.code}: ${error.message}` : String(error);
      }
      return "no error";
    };
    expect(attempt(() => createProviderModel({ provider: "openai-compatible", model: "llama3" }))).toMatch(
      /^GH_USAGE: openai-compatible needs a base URL/,
    );
    expect(attempt(() => createProviderModel({ provider: "openai", model: "gpt-4.1", maxRetries: -1 }))).toBe(
      "GH_USAGE: maxRetries must be a non-negative integer, got -1.",
    );
    expect(attempt(() => createProviderModel({ provider: "openai", model: " " }))).toBe(
      "GH_USAGE: The model id is empty.",
    );
  });
});
