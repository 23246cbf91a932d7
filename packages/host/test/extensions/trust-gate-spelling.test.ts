import { createHash } from "node:crypto";
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { type GateRegistration, gateProjectCode, registerProjectGate } from "../../src/extensions/trust-gate.ts";
import { tempDir } from "../helpers/scenario.ts";

const gates: GateRegistration[] = [];
afterEach(() => {
  for (const gate of gates.splice(0)) gate.close();
});

describe("the trust gate and a link made inside the project", () => {
  it("gates the code a link inside the project leads to, even when no import noted the link first", () => {
    const project = tempDir("gh-gate-project-");
    const outside = tempDir("gh-gate-outside-");
    writeFileSync(join(outside, "evil.ts"), "export const x = 1;\n");
    mkdirSync(join(project, "lib"));
    symlinkSync(join(outside, "evil.ts"), join(project, "lib", "fmt.ts"));
    gates.push(registerProjectGate({ root: project, retrust: "gatehouse trust", approval: new Map() }));
    expect(() => gateProjectCode(join(project, "lib", "fmt.ts"), "export const x = 1;\n")).toThrow(/is not trusted/);
    // A file outside every project, spelled where it is, is not project code.
    expect(gateProjectCode(join(outside, "evil.ts"), "export const x = 1;\n")).toBe(false);
  });

  it("lets it run when trust recorded what the link leads to", () => {
    const project = tempDir("gh-gate-project-");
    const outside = tempDir("gh-gate-outside-");
    writeFileSync(join(outside, "shared.ts"), "export const y = 2;\n");
    symlinkSync(join(outside, "shared.ts"), join(project, "shared.ts"));
    const real = createHash("sha256").update("export const y = 2;\n").digest("hex");
    gates.push(
      registerProjectGate({
        root: project,
        retrust: "gatehouse trust",
        approval: new Map([[realpathSync(join(outside, "shared.ts")), real]]),
      }),
    );
    expect(gateProjectCode(join(project, "shared.ts"), "export const y = 2;\n")).toBe(true);
  });
});
