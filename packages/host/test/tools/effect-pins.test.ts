import { lstatSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { defineExtension } from "@gatehouse/sdk";
import { describe, expect, it } from "vitest";
import { CheckedPins, pinEffectTargets } from "../../src/tools/effect-pins.ts";
import { call, runScenario, tempDir } from "../helpers/scenario.ts";

/** A project with `notes.md` and `other.md`, and `link.md` → `notes.md`. */
function project() {
  const dir = realpathSync(tempDir("gh-pins-"));
  writeFileSync(join(dir, "notes.md"), "notes\n");
  writeFileSync(join(dir, "other.md"), "other\n");
  symlinkSync("notes.md", join(dir, "link.md"));
  mkdirSync(join(dir, "sub"));
  return dir;
}

describe("the host's pins of a checked call", () => {
  it("resolve every read and write path itself when no guard pinned it", () => {
    const dir = project();
    const pins = pinEffectTargets(
      [
        { kind: "read", path: "link.md" },
        { kind: "write", path: "sub/new.md" },
      ],
      dir,
    );
    expect(pins.get(join(dir, "link.md"))).toEqual([join(dir, "notes.md")]);
    expect(pins.get(join(dir, "sub", "new.md"))).toEqual([join(dir, "sub", "new.md")]);
    const info = lstatSync(join(dir, "notes.md"));
    expect(pins.identityAt(join(dir, "notes.md"))).toEqual({ dev: info.dev, ino: info.ino });
    expect(pins.identityAt(join(dir, "sub", "new.md"))).toBe("absent");
  });

  it("take a guard's real path for the same absolute path, and remember what that file is", () => {
    const dir = project();
    // The guard says link.md lands on other.md (as if the link had been swapped between its check
    // and now): the host pins what the guard checked, so the tool must open exactly that.
    const guard = new Map([[join(dir, "link.md"), [join(dir, "other.md")]]]);
    const pins = pinEffectTargets([{ kind: "read", path: "link.md" }], dir, guard);
    expect(pins).toBeInstanceOf(CheckedPins);
    expect(pins.get(join(dir, "link.md"))).toEqual([join(dir, "other.md")]);
    const info = lstatSync(join(dir, "other.md"));
    expect(pins.identityAt(join(dir, "other.md"))).toEqual({ dev: info.dev, ino: info.ino });
    // A guard's pin of another path does not stand in for this one.
    const elsewhere = new Map([[join(dir, "other.md"), [join(dir, "other.md")]]]);
    expect(pinEffectTargets([{ kind: "read", path: "link.md" }], dir, elsewhere).get(join(dir, "link.md"))).toEqual([
      join(dir, "notes.md"),
    ]);
  });

  it("refuse the read when the path no longer lands where the guard pinned it (fail closed)", async () => {
    const dir = project();
    // A guard that pins link.md to other.md: the path really resolves to notes.md, so the built-in
    // read must refuse rather than read either file.
    const guard = defineExtension({
      name: "pinning-guard",
      setup(api) {
        api.on("tool_call", (event) => event.pin(join(dir, "link.md"), join(dir, "other.md")), { stage: "enforce" });
      },
    });
    const s = await runScenario({
      cwd: dir,
      extensions: [guard],
      turns: [{ content: [call("c1", "read", { path: "link.md" })] }, { content: [{ type: "text", text: "done" }] }],
    });
    const end = s.events.find((e) => e.type === "tool_execution_end");
    expect(end && "isError" in end && end.isError).toBe(true);
    const text = JSON.stringify(end && "result" in end ? end.result : undefined);
    expect(text).toContain("not to the file the policy check allowed");
    expect(text).not.toContain("notes\\n");
    expect(text).not.toContain("other\\n");
  });
});
