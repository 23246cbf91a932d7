// Child process of the extension-load benchmark: loads the host (not timed), then times one
// createHost that loads the first-party plugins from a project's settings. Prints milliseconds.
import { createJiti } from "jiti";

const [projectDir, home] = process.argv.slice(2);
const jiti = createJiti(import.meta.url, { interopDefault: false });
const { createHost, createScriptedModel } = await jiti.import("../../../packages/host/src/index.ts");
const { pino } = await jiti.import("pino");
const logger = pino({ level: "silent" });
const model = createScriptedModel({ turns: [] });
const base = { model, discover: true, env: { GATEHOUSE_HOME: home }, logger };
// Warm the host's own lazy paths on an empty project first, so only extension loading is timed.
await (await createHost({ ...base, cwd: home })).close();
const start = performance.now();
const host = await createHost({ ...base, cwd: projectDir });
const ms = performance.now() - start;
const failed = host.extensions().filter((r) => r.status !== "loaded");
await host.close();
console.log(
  JSON.stringify({
    ms,
    loaded: host.extensions().length - failed.length,
    failed: failed.map((r) => `${r.name}: ${r.errors[0]}`),
  }),
);
