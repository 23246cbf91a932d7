import type { CommandSpec } from "./command-spec.ts";
import { definitionList, type HelpStyle, paragraph } from "./render-help.ts";

/**
 * The help of `gatehouse` itself: every command and subcommand with its summary, the global
 * options, an example, and the exit codes in short.
 */
export function renderMainHelp(options: {
  commands: Readonly<Record<string, { spec: CommandSpec }>>;
  version: string;
  style: HelpStyle;
}): string {
  const { style } = options;
  const specs = Object.values(options.commands).flatMap(({ spec }) =>
    spec.subcommands ? Object.values(spec.subcommands) : [spec, ...Object.values(spec.variants ?? {})],
  );
  const first = options.commands.run?.spec.examples[0]?.command ?? "gatehouse run --help";
  const lines = [
    ...paragraph(`${style.bold(`gatehouse ${options.version}`)} — a tool-call host for AI coding agents`, style.width),
    "",
    style.bold("Usage:"),
    ...paragraph(
      "gatehouse COMMAND [options]   (gatehouse COMMAND --help shows its options and an example)",
      style.width,
      "  ",
      "    ",
    ),
    "",
    style.bold("Commands:"),
    ...definitionList(
      specs.map((s) => [s.name, s.summary] as const),
      style,
    ),
    "",
    style.bold("Options:"),
    ...definitionList(
      [
        ["-v, --version", "print the version"],
        ["-h, --help", "show this help"],
      ],
      style,
    ),
    "",
    style.bold("Example:"),
    ...paragraph(first, style.width, "  ", "      "),
    "",
    style.bold("Exit codes:"),
    ...paragraph(
      "0 success · 1 failure (a model error, an extension that failed to load, a refused policy check, an unexpected error) · 2 bad usage or input, a required guard that cannot run · 130 interrupted (143 SIGTERM, 129 SIGHUP) · audit verify 3–10 (gatehouse audit verify --help)",
      style.width,
      "  ",
      "  ",
    ),
  ];
  return `${lines.join("\n")}\n`;
}
