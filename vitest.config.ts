import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      { test: { name: "sdk", root: "packages/sdk", include: ["test/**/*.test.ts"], testTimeout: 30_000 } },
      { test: { name: "host", root: "packages/host", include: ["test/**/*.test.ts"], testTimeout: 30_000 } },
      { test: { name: "plugins", root: "plugins", include: ["*/test/**/*.test.ts"], testTimeout: 30_000 } },
    ],
  },
});
