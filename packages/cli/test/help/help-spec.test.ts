import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { VERDICT_EXIT_CODES } from "@gatehouse/tool-audit/readers";
import { describe, expect, it } from "vitest";
import { ExitCode } from "../../src/exit-codes.ts";
import { closest } from "../../src/help/closest.ts";
import type { CommandSpec } from "../../src/help/command-spec.ts";
import { exitCodeTable } from "../../src/help/exit-code-table.ts";
import { parseCommand } from "../../src/help/parse-command.ts";
import { exitCodesOf, renderHelp } from "../../src/help/render-help.ts";
import { UsageError } from "../../src/help/usage-error.ts";
import { COMMANDS } from "../../src/main.ts";

const SRC = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "src");
const README = join(SRC, "..", "..", "..", "README.md");

/** Every spec that parses arguments: commands without subcommands (and their variants), and every subcommand. */
const LEAVES: CommandSpec[] = Object.values(COMMANDS).flatMap(({ spec }) =>
  spec.subcommands ? Object.values(spec.subcommands) : [spec, ...Object.values(spec.variants ?? {})],
);
const ALL: CommandSpec[] = Object.values(COMMANDS).flatMap(({ spec }) => [
  spec,
  ...Object.values(spec.subcommands ?? {}),
  ...Object.values(spec.variants ?? {}),
]);

const plain = (width: number) => ({ width, bold: (text: string) => text });

/** The long flag names listed under "Options:" of a help text. */
function listedFlags(help: string): string[] {
  const section = help.split("\nOptions:\n")[1]?.split("\n\n")[0] ?? "";
  return [...section.matchAll(/^ {2}(?:-\w, | {4})--([a-z][a-z-]*)/gm)].map((m) => m[1] as string);
}

/** Every TypeScript file of the CLI's sources except the specs and the help layer themselves. */
function commandSources(dir = SRC): string {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => {
      const path = join(dir, e.name);
      if (e.isDirectory()) return e.name === "specs" || e.name === "help" ? [] : [commandSources(path)];
      return e.name.endsWith(".ts") ? [readFileSync(path, "utf8")] : [];
    })
    .join("\n");
}

describe("command specs: the help of every command is its parser's", () => {
  it("every command of the table has a summary and at least one example; every flag a description", () => {
    for (const spec of ALL) {
      expect(spec.summary.length, spec.name).toBeGreaterThan(10);
      expect(spec.examples.length, spec.name).toBeGreaterThan(0);
      for (const example of spec.examples) expect(example.command, spec.name).toMatch(/^gatehouse /);
      for (const [name, flag] of Object.entries(spec.flags)) {
        expect(flag.description.length, `${spec.name} --${name}`).toBeGreaterThan(10);
        if (flag.type === "string") expect(flag.value, `${spec.name} --${name} names its value`).toMatch(/^[A-Z_:]+$/);
      }
    }
  });

  it.each(LEAVES.map((s) => [s.name, s] as const))(
    "gatehouse %s --help lists exactly the flags its parser accepts",
    (_name, spec) => {
      const help = renderHelp(spec, plain(100));
      expect(listedFlags(help).sort()).toEqual([...Object.keys(spec.flags), "help"].sort());
      for (const p of spec.positionals ?? []) expect(help).toContain(p.name);
      for (const [name, flag] of Object.entries(spec.flags)) {
        const args = flag.type === "string" ? [`--${name}`, "v"] : [`--${name}`];
        expect(() => parseCommand(spec, args), `--${name}`).not.toThrow();
        if (flag.short) expect(() => parseCommand(spec, [`-${flag.short}`, ...args.slice(1)])).not.toThrow();
      }
      expect(() => parseCommand(spec, ["--no-such-flag"])).toThrow(UsageError);
      expect(parseCommand(spec, ["-h"]).help).toBe(true);
    },
  );

  it("every flag a spec declares is read by the command's code (a listed flag that does nothing is a bug)", () => {
    const code = commandSources();
    for (const spec of LEAVES) {
      for (const name of Object.keys(spec.flags)) {
        const read = /^[a-z]+$/.test(name)
          ? new RegExp(`\\.${name}\\b|\\["${name}"\\]`)
          : new RegExp(`\\["${name}"\\]`);
        expect(read.test(code), `${spec.name} --${name} is never read`).toBe(true);
      }
    }
  });

  it.each([60, 80, 120])("wraps help at %i columns at word boundaries, losing no word", (width) => {
    for (const spec of ALL) {
      const help = renderHelp(spec, plain(width - 1));
      for (const line of help.split("\n")) expect(line.length, `${spec.name}: ${line}`).toBeLessThanOrEqual(width - 1);
      const flat = help.replace(/\s+/g, " ");
      for (const flag of Object.values(spec.flags)) expect(flat, spec.name).toContain(flag.description);
      expect(flat).toContain(spec.summary);
    }
  });
});

describe("exit codes", () => {
  const codes = (name: string) => exitCodesOf(LEAVES.find((s) => s.name === name) as CommandSpec).map((e) => e.code);

  it("the README's table is the one the specs give (run pnpm vitest after editing a spec's codes)", () => {
    const table = exitCodeTable(Object.values(COMMANDS).map((c) => c.spec));
    // Biome pads the README's tables into columns: compare the cells, not the padding.
    const cells = (text: string) => text.replace(/ *\| */g, "|").replace(/\|-{3,}/g, "|---");
    expect(cells(readFileSync(README, "utf8"))).toContain(`${cells(table)}\n`);
    expect(table.split("\n")).toHaveLength(2 + LEAVES.length);
  });

  it("audit verify lists every verdict's code, and run every code of ExitCode", () => {
    expect(codes("audit verify")).toEqual(expect.arrayContaining(Object.values(VERDICT_EXIT_CODES)));
    expect(codes("run")).toEqual(expect.arrayContaining(Object.values(ExitCode)));
  });

  it("tail and stats list the codes of a missing or replaced log; every command lists 0, 1 and 2", () => {
    for (const name of ["audit tail", "audit stats"]) {
      expect(codes(name)).toEqual(expect.arrayContaining([VERDICT_EXIT_CODES.no_log, VERDICT_EXIT_CODES.replaced]));
    }
    for (const spec of LEAVES)
      expect(
        exitCodesOf(spec)
          .map((e) => e.code)
          .slice(0, 3),
        spec.name,
      ).toEqual([0, 1, 2]);
  });
});

describe("parsing", () => {
  const spec = COMMANDS.run?.spec as CommandSpec;

  it("names the closest valid flag for a typo", () => {
    expect(() => parseCommand(spec, ["--jsno"])).toThrow(
      /unknown option --jsno for "gatehouse run"; did you mean --json\?/,
    );
    expect(() => parseCommand(spec, ["--sesion", "x"])).toThrow(/did you mean --session\?/);
    expect(() => parseCommand(spec, ["--contine"])).toThrow(/did you mean --continue\?/);
    expect(() => parseCommand(spec, ["--zzzzzzzz"])).toThrow(/^unknown option --zzzzzzzz for "gatehouse run"\n/);
  });

  it("says when a value is missing, or when a flag that takes none got one", () => {
    expect(() => parseCommand(spec, ["--script"])).toThrow(/--script needs a value: --script FILE/);
    expect(() => parseCommand(spec, ["--script", "--json"])).toThrow(/--script needs a value/);
    expect(() => parseCommand(spec, ["--json=yes"])).toThrow(/--json takes no value/);
    expect(parseCommand(spec, ["--max-turns", "-1"]).values["max-turns"]).toBe("-1");
  });

  it("refuses an empty value or argument (a variable that expanded to nothing), but --resume's and the prompt's", () => {
    expect(() => parseCommand(spec, ["--cwd", ""])).toThrow(/^--cwd is empty: --cwd DIR needs a value\nusage:/);
    expect(() => parseCommand(spec, ["--script="])).toThrow(/--script is empty/);
    const verify = COMMANDS.audit?.spec.subcommands?.verify as CommandSpec;
    expect(() => parseCommand(verify, [""])).toThrow(/^FILE is empty: give a value or leave it out/);
    expect(parseCommand(spec, ["--resume="]).values.resume).toBe("");
    expect(parseCommand(spec, ["", "x"]).positionals).toEqual(["", "x"]);
  });

  it("takes --resume alone or with an id, and leaves the prompt alone", () => {
    expect(parseCommand(spec, ["--resume"]).values.resume).toBe("");
    expect(parseCommand(spec, ["--resume", "--json"]).values).toMatchObject({ resume: "", json: true });
    expect(parseCommand(spec, ["-r", "3f2a"]).values.resume).toBe("3f2a");
    expect(parseCommand(spec, ["fix", "it", "-c"])).toMatchObject({
      positionals: ["fix", "it"],
      values: { continue: true },
    });
  });

  it("refuses arguments a command does not take", () => {
    const tools = COMMANDS.tools?.spec as CommandSpec;
    expect(() => parseCommand(tools, ["extra"])).toThrow(
      /unexpected argument "extra": gatehouse tools takes no arguments/,
    );
    expect(() => parseCommand(tools, ["--", "--json"])).toThrow(/unexpected argument "--json"/);
    expect(parseCommand(spec, ["--", "--json"])).toMatchObject({ positionals: ["--json"], values: { json: false } });
  });

  it("suggests only what is close", () => {
    expect(closest("stats", ["verify", "tail", "stats"])).toBe("stats");
    expect(closest("stat", ["verify", "tail", "stats"])).toBe("stats");
    expect(closest("veryfy", ["verify", "tail", "stats"])).toBe("verify");
    expect(closest("xyz", ["verify", "tail", "stats"])).toBeUndefined();
  });
});
