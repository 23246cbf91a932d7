// Entry point of `pnpm bench`: re-spawns itself with --expose-gc, then runs bench/src/main.ts through jiti.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { createJiti } from "jiti";

if (typeof globalThis.gc !== "function" && process.env.GATEHOUSE_BENCH_CHILD !== "1") {
  const child = spawnSync(process.execPath, ["--expose-gc", fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: "inherit",
    env: { ...process.env, GATEHOUSE_BENCH_CHILD: "1" },
  });
  process.exit(child.status ?? 1);
}

// interopDefault wraps every jiti-loaded module in a Proxy, which costs the loop ~30% per call;
// it is off so the figures measure the loop, not the loader. JITI_INTEROP_DEFAULT=true turns it on.
const interopDefault = process.env.JITI_INTEROP_DEFAULT === "true";
// The peer is plain ESM: loaded natively, as it ships.
const jiti = createJiti(import.meta.url, {
  interopDefault,
  nativeModules: ["@mariozechner/pi-agent-core", "@mariozechner/pi-ai", "@mariozechner/pi-coding-agent", "typebox"],
});
console.log(`gatehouse loaded from source through jiti (interopDefault: ${interopDefault})`);
const { main } = await jiti.import("./src/main.ts");
process.exitCode = await main(process.argv.slice(2));
