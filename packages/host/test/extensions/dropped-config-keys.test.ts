import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { closeHosts, makeProject, openHost } from "./project.ts";

afterEach(closeHosts);

/** A guard in the user's extension folder whose config schema is `schema` (source text using `z`). */
function guard(schema: string): string {
  return `import { defineExtension, z } from "@gatehouse/sdk";
export default defineExtension({ name: "block-words", setup(api) {
  const config = api.config(${schema});
  (globalThis as any).__ghBlockWords = config;
}});
`;
}

describe("a settings key an extension's plain z.object would drop is a load error, not a silent default", () => {
  it("a typo in a guard's section (blockd for blocked), also nested, names its file and key", async () => {
    const schema =
      "z.object({ blocked: z.array(z.string()).default([]), mode: z.object({ level: z.number() }).optional() })";
    const p = makeProject(
      {},
      {
        "extensions/block-words.ts": guard(schema),
        "settings.json": JSON.stringify({ config: { "block-words": { blockd: ["rm "], mode: { levl: 2 } } } }),
      },
    );
    const { host } = await openHost(p);
    const record = host.extensions().find((r) => r.name === "block-words");
    expect(record?.status).toBe("failed");
    const errors = record?.errors.join("\n") ?? "";
    expect(errors).toContain(
      `${join(p.home, "settings.json")}:1:36: config["block-words"].blockd: unknown key (allowed keys: blocked, mode)`,
    );
    expect(errors).toContain('config["block-words"].mode.levl: unknown key (allowed keys: level)');
  });

  it("known keys load as before, and a loose object keeps the keys it is meant to keep", async () => {
    for (const [schema, section] of [
      ["z.object({ blocked: z.array(z.string()).default([]) })", { blocked: ["rm "] }],
      ["z.looseObject({ blocked: z.array(z.string()).default([]) })", { blocked: ["rm "], extra: 1 }],
    ] as const) {
      const p = makeProject(
        {},
        {
          "extensions/block-words.ts": guard(schema),
          "settings.json": JSON.stringify({ config: { "block-words": section } }),
        },
      );
      const { host } = await openHost(p);
      expect(host.extensions().find((r) => r.name === "block-words")?.status).toBe("loaded");
      expect((globalThis as { __ghBlockWords?: unknown }).__ghBlockWords).toMatchObject(section);
    }
  });
});
