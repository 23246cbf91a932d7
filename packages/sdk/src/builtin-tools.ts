import { z } from "zod";

// The parameter schemas of the built-in tools live here, not in the host, so that an extension can
// type a call to `write` without depending on the host: the host's tools are built on these very
// objects, and `BuiltinToolInputs` is inferred from them (one source, no copy to drift).

/** The seven schemas, built together when one is first read (see `builtinToolParameters`). */
function buildParameters() {
  const PATH_NOTE = "relative to the working directory unless absolute; ~ is the home directory";

  const read = z.object({
    path: z.string().describe(`File to read; ${PATH_NOTE}.`),
    offset: z.number().int().min(1).optional().describe("1-based number of the first line to show (default 1)."),
    limit: z.number().int().min(1).optional().describe("Maximum number of lines to show."),
  });

  const write = z.object({
    path: z.string().describe(`File to write; ${PATH_NOTE}.`),
    content: z.string().describe("The complete new content of the file."),
  });

  const editItem = z.object({
    oldText: z.string().min(1).describe("Exact text to replace, including whitespace and indentation."),
    newText: z.string().describe("Replacement text."),
    replaceAll: z.boolean().optional().describe("Replace every occurrence instead of requiring exactly one."),
  });

  // One flat object (not a union) so providers that require an object schema accept it; the
  // refinement says in words which combination is missing.
  const edit = z
    .object({
      path: z.string().describe(`File to edit; ${PATH_NOTE}.`),
      oldText: z
        .string()
        .min(1)
        .optional()
        .describe("Exact text to replace; must occur exactly once unless replaceAll."),
      newText: z.string().optional().describe("Replacement for oldText."),
      replaceAll: z.boolean().optional().describe("Replace every occurrence of oldText (default false)."),
      edits: z
        .array(editItem)
        .min(1)
        .optional()
        .describe(
          "Several replacements in one call, instead of oldText/newText; each is matched against the original file.",
        ),
    })
    .superRefine((args, ctx) => {
      const single = args.oldText !== undefined || args.newText !== undefined;
      if (args.edits !== undefined && single) {
        ctx.addIssue({ code: "custom", path: ["edits"], message: "pass either oldText/newText or edits, not both" });
        return;
      }
      if (args.edits !== undefined) return;
      for (const key of ["oldText", "newText"] as const) {
        if (args[key] === undefined) {
          ctx.addIssue({ code: "custom", path: [key], message: "required (or pass edits: [{oldText, newText}])" });
        }
      }
    });

  const ls = z.object({
    path: z
      .string()
      .optional()
      .describe(
        "Directory to list (default: the working directory); relative unless absolute; ~ is the home directory.",
      ),
  });

  const find = z.object({
    pattern: z
      .string()
      .min(1)
      .describe(
        'Glob, e.g. "**/*.ts", "src/**/test-*.js" or "*.md" (a pattern without "/" matches names at any depth).',
      ),
    path: z
      .string()
      .optional()
      .describe(
        "Directory to search (default: the working directory); relative unless absolute; ~ is the home directory.",
      ),
  });

  const grep = z.object({
    pattern: z
      .string()
      .min(1)
      .describe('JavaScript regular expression matched against each line, e.g. "foo\\\\(" or "^import ".'),
    path: z
      .string()
      .optional()
      .describe(
        "File or directory to search (default: the working directory); relative unless absolute; ~ is the home directory.",
      ),
    glob: z
      .string()
      .optional()
      .describe('Only search files whose relative path or name matches this glob, e.g. "*.ts" or "src/**/*.md".'),
  });

  const bash = z.object({
    command: z.string().min(1).describe("Bash command line to run in the working directory."),
    timeout: z
      .number()
      .positive()
      .optional()
      .describe("Seconds before the command and everything it started are killed (default 120)."),
  });

  return { read, write, edit, ls, find, grep, bash };
}

type Parameters = ReturnType<typeof buildParameters>;
let built: Parameters | undefined;
function parameter<K extends keyof Parameters>(name: K): Parameters[K] {
  built ??= buildParameters();
  return built[name];
}

/**
 * The zod parameter schemas of the built-in tools, by name: what the host validates a call to
 * `read`, `write`, `edit`, `ls`, `find`, `grep` or `bash` against. An override of a built-in may
 * reuse them (`parameters: builtinToolParameters.write`) to keep its input compatible.
 */
export const builtinToolParameters = Object.freeze({
  // Getters: the schemas are built at the first read of one, not when the SDK is imported (every
  // command that loads an extension would pay for them; `gatehouse tools` never reads them).
  get read() {
    return parameter("read");
  },
  get write() {
    return parameter("write");
  },
  get edit() {
    return parameter("edit");
  },
  get ls() {
    return parameter("ls");
  },
  get find() {
    return parameter("find");
  },
  get grep() {
    return parameter("grep");
  },
  get bash() {
    return parameter("bash");
  },
});

/** The name of a built-in tool. */
export type BuiltinToolName = keyof typeof builtinToolParameters;

/**
 * The validated input of each built-in tool, inferred from its schema: what a `tool_call` handler
 * sees after `isToolCall(event, "write")` (`{ path: string; content: string }`).
 */
export type BuiltinToolInputs = { [K in BuiltinToolName]: z.output<(typeof builtinToolParameters)[K]> };
