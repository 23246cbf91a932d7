import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pino } from "pino";
import { createHost, createScriptedModel } from "../../../packages/host/src/index.ts";

const source = (version: number) => `import { defineExtension, defineTool, z } from "@gatehouse/sdk";
export default defineExtension({ name: "bench-reload", setup(api) {
  api.registerTool(defineTool({ name: "v${version}", description: "version", parameters: z.object({}), effects: () => [],
    execute: () => ({ content: [{ type: "text", text: "${version}" }] }) }));
} });
`;

/**
 * Times "file saved → new version active" through the real watcher (chokidar, debounce included):
 * from the write until the host reports the reload and the new tool is registered.
 */
export async function measureReloads(times: number): Promise<number[]> {
  const dir = mkdtempSync(join(tmpdir(), "gh-bench-reload-"));
  const home = mkdtempSync(join(tmpdir(), "gh-bench-home-"));
  mkdirSync(join(dir, ".gatehouse", "extensions"), { recursive: true });
  const file = join(dir, ".gatehouse", "extensions", "bench-reload.ts");
  writeFileSync(file, source(0));
  const host = await createHost({
    cwd: dir,
    model: createScriptedModel({ turns: [] }),
    discover: true,
    trust: true,
    watch: true,
    env: { GATEHOUSE_HOME: home },
    logger: pino({ level: "silent" }),
  });
  const samples: number[] = [];
  for (let version = 1; version <= times + 1; version++) {
    const reloaded = new Promise<void>((resolve) => {
      const off = host.subscribe((e) => {
        if (e.type === "extensions_reloaded" && host.tools().some((t) => t.name === `v${version}`)) {
          off();
          resolve();
        }
      });
    });
    const start = performance.now();
    writeFileSync(file, source(version));
    await reloaded;
    if (version > 1) samples.push(performance.now() - start); // the first reload warms the path
  }
  await host.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
  return samples;
}
