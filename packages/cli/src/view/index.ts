/** The live terminal view of `gatehouse run`. */
export { createLiveView } from "./live-view.ts";
export type { ClearIntervalFn, SetIntervalFn } from "./spinner.ts";
export type { LiveView, LiveViewCloseSummary, LiveViewOptions, LiveViewOutput } from "./types.ts";
