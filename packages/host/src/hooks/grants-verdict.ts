import type { SandboxProfile, ToolEffect } from "@gatehouse/sdk";
import { errorMessage } from "../common/errors.ts";
import type { ToolCallRequest, ToolCallVerdict } from "../loop/types.ts";
import type { SandboxRuntime } from "../sandbox/sandbox-runtime.ts";
import { INSTALL_HINT } from "../sandbox/sandbox-support.ts";
import type { CallGrants } from "./tool-call-stages.ts";

function block(options: {
  by: string;
  reason: string;
  input: Readonly<Record<string, unknown>>;
  effects: readonly ToolEffect[] | undefined;
}): ToolCallVerdict {
  const { by, reason, input, effects } = options;
  return { action: "block", blockedBy: by, reason, input, effects };
}

/** Every guard's read filter at once; a filter that throws refuses the entry (fail closed). */
function combinedFilter(filters: CallGrants["readFilters"]): (absolutePath: string) => boolean {
  return (absolutePath) =>
    filters.every(({ canRead }) => {
      try {
        return canRead(absolutePath) === true;
      } catch {
        return false;
      }
    });
}

/**
 * Turns the grants of an allowed call into its verdict: pins, the combined read filter and the
 * sandbox the tool runs in.
 * Contract: fail closed at the host level — a call confined twice, confined but sent to a tool
 * that does not declare `honoursSandbox`, or confined where no sandbox can start is blocked in the
 * name of the guard that confined it, with a reason that says what to do.
 */
export function grantsVerdict(options: {
  request: ToolCallRequest;
  input: Readonly<Record<string, unknown>>;
  effects: readonly ToolEffect[] | undefined;
  grants: CallGrants;
  sandbox: SandboxRuntime | undefined;
}): ToolCallVerdict | Promise<ToolCallVerdict> {
  const { request, input, effects, grants } = options;
  const tool = request.tool.name;
  const verdict: Extract<ToolCallVerdict, { action: "allow" }> = { action: "allow", input, effects };
  if (grants.pins.size > 0) verdict.pins = grants.pins;
  if (grants.identities.size > 0) verdict.pinIdentities = grants.identities;
  if (grants.readFilters.length > 0) verdict.canRead = combinedFilter(grants.readFilters);
  const [first, second] = grants.confinements;
  if (!first) return verdict;
  const refuse = (by: string, why: string) =>
    block({ by, reason: `Call to tool ${tool} refused: ${why}.`, input, effects });
  if (second) {
    return refuse(second.by, `it is already confined by ${first.by}, and one call runs in one sandbox only`);
  }
  if (request.tool.honoursSandbox !== true) {
    return refuse(
      first.by,
      `${first.by} confines its processes to a sandbox, but the tool does not declare honoursSandbox (it would start them without ctx.sandbox)`,
    );
  }
  const sandbox = options.sandbox;
  if (!sandbox) return refuse(first.by, `${first.by} confines it to a sandbox, and this host runs none`);
  return confined({ verdict, sandbox, by: first.by, profile: first.profile, refuse });
}

/** The verdict of a confined call once the sandbox is known to start here (probed once per host). */
async function confined(options: {
  verdict: Extract<ToolCallVerdict, { action: "allow" }>;
  sandbox: SandboxRuntime;
  by: string;
  profile: SandboxProfile;
  refuse: (by: string, why: string) => ToolCallVerdict;
}): Promise<ToolCallVerdict> {
  const { verdict, by, refuse } = options;
  let support: Awaited<ReturnType<SandboxRuntime["support"]>>;
  try {
    support = await options.sandbox.support();
  } catch (error) {
    support = { ok: false, reason: errorMessage(error), fix: INSTALL_HINT };
  }
  if (!support.ok) {
    return refuse(
      by,
      `${by} runs it in a sandbox, which cannot start here: ${support.reason}. To fix: ${support.fix}, or choose another mode in ${by}'s settings`,
    );
  }
  verdict.sandbox = options.sandbox.confine(options.profile, by);
  return verdict;
}
