/** The publishable packages, in build order (a package after those it depends on). */
export const PACKAGES = [
  "packages/sdk",
  "plugins/protected-paths",
  "plugins/tool-audit",
  "plugins/hello-tool",
  "packages/host",
  "packages/testing",
  "packages/cli",
];

/**
 * A package's tsdown configurations, in the order they must run: `tsdown.config.mjs` (it cleans
 * dist/), then the CLI's agent-hook bundles (`tsdown.hook.config.mjs`, a list) where there are
 * some — the same builds as the package's own `build` script.
 * @param {string} dir the package directory
 */
export async function buildConfigs(dir) {
  const { existsSync } = await import("node:fs");
  const { join } = await import("node:path");
  const configs = [(await import(join(dir, "tsdown.config.mjs"))).default];
  const hook = join(dir, "tsdown.hook.config.mjs");
  if (existsSync(hook)) configs.push((await import(hook)).default);
  return configs.flat();
}
