/**
 * Help text from command specs: usage, arguments, options, examples and exit codes, wrapped at
 * word boundaries to the width it is given.
 */
import { wrapWords } from "../view/word-wrap.ts";
import type { CommandSpec, ExitCodeSpec, FlagSpec } from "./command-spec.ts";
import { HELP_FLAG } from "./command-spec.ts";
import { flagSyntax, usageLine } from "./usage-line.ts";

/** How help is laid out. */
export interface HelpStyle {
  /** Columns a line may take. */
  width: number;
  /** Wraps a heading or a command name in bold; the identity without colours. */
  bold: (text: string) => string;
}

/** The exit codes every command shares. */
export const COMMON_EXIT_CODES: readonly ExitCodeSpec[] = [
  { code: 0, meaning: "success" },
  { code: 1, meaning: "an unexpected failure (reported on stderr)" },
  { code: 2, meaning: "bad usage or input: an unknown option, a missing or malformed file, a bad --cwd" },
];

/** Widest first column before descriptions move to their own line. */
const MAX_TERM = 30;

/** Rows of `text` wrapped to `width` with a hanging indent. */
export function paragraph(text: string, width: number, indent = "", hanging = indent): string[] {
  return wrapWords(text, { width, first: indent, line: hanging, rest: hanging });
}

/** A two-column list: terms, and descriptions wrapped in the second column. */
export function definitionList(
  rows: readonly (readonly [string, string])[],
  style: HelpStyle,
  indent = "  ",
): string[] {
  const termWidth = Math.min(MAX_TERM, Math.max(0, ...rows.map(([term]) => term.length)));
  const column = indent.length + termWidth + 2;
  const out: string[] = [];
  const narrow = style.width - column < 24;
  for (const [term, description] of rows) {
    if (narrow || term.length > termWidth) {
      out.push(`${indent}${term}`);
      out.push(...paragraph(description, style.width, " ".repeat(indent.length + 4)));
      continue;
    }
    const [head = "", ...rest] = paragraph(description, style.width - column);
    out.push(`${indent}${term.padEnd(termWidth)}  ${head}`.trimEnd());
    for (const row of rest) out.push(`${" ".repeat(column)}${row}`);
  }
  return out;
}

function flagTerm(name: string, flag: FlagSpec): string {
  return `${flag.short ? `-${flag.short}, ` : "    "}${flagSyntax(name, flag)}`;
}

function section(title: string, lines: readonly string[], style: HelpStyle): string[] {
  return lines.length === 0 ? [] : ["", style.bold(`${title}:`), ...lines];
}

function examples(spec: CommandSpec, style: HelpStyle): string[] {
  return spec.examples.flatMap((e) => [
    ...paragraph(e.command, style.width, "  ", "      "),
    ...(e.note ? paragraph(e.note, style.width, "    # ", "      ") : []),
  ]);
}

/** Every exit code of one command, common ones included, in order. */
export function exitCodesOf(spec: CommandSpec): ExitCodeSpec[] {
  const merged = new Map<number, string>();
  for (const e of COMMON_EXIT_CODES) merged.set(e.code, e.meaning);
  for (const e of spec.exitCodes ?? []) merged.set(e.code, e.meaning);
  return [...merged].sort(([a], [b]) => a - b).map(([code, meaning]) => ({ code, meaning }));
}

/**
 * The help of one command or command group.
 * Contract: lists every flag of the spec (and -h, --help) with its description, every positional
 * argument, every example and every exit code; no line is wider than `style.width` unless a
 * single word is.
 */
export function renderHelp(spec: CommandSpec, style: HelpStyle): string {
  const lines = [...paragraph(`${style.bold(`gatehouse ${spec.name}`)} — ${spec.summary}`, style.width, "", "  ")];
  lines.push(...section("Usage", paragraph(usageLine(spec), style.width, "  ", "      "), style));
  for (const text of spec.details ?? []) lines.push("", ...paragraph(text, style.width));
  if (spec.subcommands) {
    const rows = Object.values(spec.subcommands).map((s) => [s.name, s.summary] as const);
    lines.push(...section("Commands", definitionList(rows, style), style));
  }
  const args = (spec.positionals ?? []).map((p) => [p.variadic ? `${p.name}...` : p.name, p.description] as const);
  lines.push(...section("Arguments", definitionList(args, style), style));
  const flags = [...Object.entries(spec.flags), ["help", HELP_FLAG] as const].map(
    ([name, flag]) => [flagTerm(name, flag), flag.description] as const,
  );
  lines.push(...section("Options", definitionList(flags, style), style));
  lines.push(...section(spec.examples.length === 1 ? "Example" : "Examples", examples(spec, style), style));
  if (!spec.subcommands) {
    const codes = exitCodesOf(spec).map((e) => [String(e.code), e.meaning] as const);
    lines.push(...section("Exit codes", definitionList(codes, style), style));
  } else {
    lines.push(
      "",
      ...paragraph(`Run gatehouse ${spec.name} COMMAND --help for the options and exit codes of each.`, style.width),
    );
  }
  return `${lines.join("\n")}\n`;
}
