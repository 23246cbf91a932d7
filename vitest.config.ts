import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Workspace packages resolve to their TypeScript sources (the "@gatehouse/source" export condition),
// so tests never need a build.
const conditions = ["@gatehouse/source"];

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions } },
  test: {
    // Vitest's default leaves one core free, which is a single worker on a 2-core machine. Most of
    // the suite waits on child processes and the filesystem, so two workers there halve the time
    // (5m20s → 3m20s measured) without starving the CPU-bound tests.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    globalSetup: [
      fileURLToPath(new URL("./scripts/build-if-stale.mjs", import.meta.url)),
      fileURLToPath(new URL("./scripts/test-temp-root.mjs", import.meta.url)),
      // After the temporary root: the tests' own HOME and no GATEHOUSE_* or agent variables of the developer's.
      fileURLToPath(new URL("./scripts/test-env.mjs", import.meta.url)),
    ],
    // `isolate: false` for the projects whose tests import the host and the plugins in-process: one
    // module graph per worker instead of one per test file (the suite spent ~100 s of its CPU
    // importing; 317 s → 226 s on 2 cores). The CLI's tests spawn the built CLI and stay isolated.
    // A test that changes module state (a matching budget, fake timers, env) restores it after itself.
    projects: [
      {
        extends: true,
        test: {
          name: "sdk",
          root: "packages/sdk",
          include: ["test/**/*.test.ts"],
          testTimeout: 30_000,
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: "cli", root: "packages/cli", include: ["test/**/*.test.ts"], testTimeout: 30_000 },
      },
      {
        extends: true,
        test: {
          name: "host",
          root: "packages/host",
          include: ["test/**/*.test.ts"],
          // The README's examples load a second copy of the host through jiti: in a shared worker its
          // trust gate would take over the import guard of the copy the other files test.
          exclude: ["test/docs/**"],
          testTimeout: 30_000,
          isolate: false,
        },
      },
      {
        extends: true,
        test: { name: "host-docs", root: "packages/host", include: ["test/docs/**/*.test.ts"], testTimeout: 30_000 },
      },
      {
        extends: true,
        test: {
          name: "testing",
          root: "packages/testing",
          include: ["test/**/*.test.ts"],
          testTimeout: 30_000,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: "plugins",
          root: "plugins",
          isolate: false,
          include: ["*/test/**/*.test.ts"],
          // The sandbox escape corpus (~30 s of real bubblewrap runs) is its own step: `pnpm test:corpus`,
          // which `.ci/run` runs after `pnpm test`, so `pnpm test` stays under five minutes on 2 cores.
          exclude: process.env.GATEHOUSE_TEST_CORPUS === "1" ? [] : ["**/sandbox-corpus/**"],
          testTimeout: 30_000,
        },
      },
    ],
  },
});
