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
    const pins = pinEffectTargets([{ kind: "read", path: "link.md" }], dir, { pins: guard });
    expect(pins).toBeInstanceOf(CheckedPins);
    expect(pins.get(join(dir, "link.md"))).toEqual([join(dir, "other.md")]);
    const info = lstatSync(join(dir, "other.md"));
    expect(pins.identityAt(join(dir, "other.md"))).toEqual({ dev: info.dev, ino: info.ino });
    // A guard's pin of another path does not stand in for this one.
    const elsewhere = new Map([[join(dir, "other.md"), [join(dir, "other.md")]]]);
    expect(
      pinEffectTargets([{ kind: "read", path: "link.md" }], dir, { pins: elsewhere }).get(join(dir, "link.md")),
    ).toEqual([join(dir, "notes.md")]);
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
    expect(text).not.toContain('"text":"notes"');
    expect(text).not.toContain('"text":"other"');
  });

  it("take what a guard saw at a real path as its identity, without looking again", () => {
    const dir = project();
    const notes = join(dir, "notes.md");
    const other = lstatSync(join(dir, "other.md"));
    // The guard says notes.md was other.md's inode when it checked: the tool must find that file.
    const pins = pinEffectTargets([{ kind: "read", path: "notes.md" }], dir, {
      pins: new Map([[notes, [notes]]]),
      identities: new Map([[notes, { dev: other.dev, ino: other.ino }]]),
    });
    expect(pins.identityAt(notes)).toEqual({ dev: other.dev, ino: other.ino });
    // Without an identity from the guard, the host looks itself.
    const looked = pinEffectTargets([{ kind: "read", path: "notes.md" }], dir, { pins: new Map([[notes, [notes]]]) });
    const info = lstatSync(notes);
    expect(looked.identityAt(notes)).toEqual({ dev: info.dev, ino: info.ino });
  });

  /** A guard that pins notes.md to itself with the identity `identityOf()` gives. */
  const identityGuard = (name: string, dir: string, identityOf: () => unknown) =>
    defineExtension({
      name,
      setup(api) {
        api.on(
          "tool_call",
          (event) => {
            const notes = join(dir, "notes.md");
            event.pin(notes, notes, identityOf() as never);
          },
          { stage: "enforce" },
        );
      },
    });

  async function readNotes(dir: string, extensions: ReturnType<typeof defineExtension>[]) {
    const s = await runScenario({
      cwd: dir,
      extensions,
      turns: [{ content: [call("c1", "read", { path: "notes.md" })] }, { content: [{ type: "text", text: "done" }] }],
    });
    const end = s.events.find((e) => e.type === "tool_execution_end");
    return {
      isError: end && "isError" in end ? end.isError : undefined,
      text: JSON.stringify(end && "result" in end ? end.result : undefined),
    };
  }

  it("refuse a read when the file at the path is not the one the guard saw (fail closed)", async () => {
    const dir = project();
    const other = lstatSync(join(dir, "other.md"));
    const out = await readNotes(dir, [identityGuard("stale-guard", dir, () => ({ dev: other.dev, ino: other.ino }))]);
    expect(out.isError).toBe(true);
    expect(out.text).toContain("changed after the policy check");
    expect(out.text).not.toContain('"text":"notes"');
  });

  it("refuse every use of a file two guards saw as different files", async () => {
    const dir = project();
    const notes = lstatSync(join(dir, "notes.md"));
    const other = lstatSync(join(dir, "other.md"));
    const out = await readNotes(dir, [
      identityGuard("guard-a", dir, () => ({ dev: notes.dev, ino: notes.ino })),
      identityGuard("guard-b", dir, () => ({ dev: other.dev, ino: other.ino })),
    ]);
    expect(out.isError).toBe(true);
    expect(out.text).toContain("seen as different files by the policy checks");
  });

  it("read normally when the guard's identity is the file's, and ignore an identity that is not one", async () => {
    const dir = project();
    const notes = lstatSync(join(dir, "notes.md"));
    const right = await readNotes(dir, [identityGuard("right", dir, () => ({ dev: notes.dev, ino: notes.ino }))]);
    expect(right).toEqual({ isError: false, text: expect.stringContaining('"text":"notes"') });
    const junk = await readNotes(dir, [identityGuard("junk", dir, () => ({ dev: "x", ino: 1 }))]);
    expect(junk.isError).toBe(false);
  });
});
