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
