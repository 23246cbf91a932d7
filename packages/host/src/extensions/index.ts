export { type DiscoveredExtension, discoverExtensions, type ExtensionOrigin } from "./discovery.ts";
export { extensionFiles, fingerprint } from "./extension-files.ts";
export { type ExtensionCandidate, ExtensionManager, type ReloadSummary } from "./extension-manager.ts";
export { loadModule } from "./module-loader.ts";
export type { ExtensionRecord } from "./types.ts";
export { type ExtensionWatcher, watchExtensions } from "./watcher.ts";
