/** A seeded pseudo-random source (mulberry32), so every run writes the same session. */
export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max]. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
}

/** Creates a deterministic random source from a 32-bit seed. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
  };
}

/** Files of a plausible TypeScript project, the paths tool calls name. */
export const FILES = [
  "packages/host/src/session/session-writer.ts",
  "packages/host/src/session/read-session.ts",
  "packages/host/src/host/create-host.ts",
  "packages/host/src/loop/agent-loop.ts",
  "packages/host/src/tools/read.ts",
  "packages/host/test/session/session.test.ts",
  "packages/sdk/src/messages.ts",
  "plugins/tool-audit/src/recorder.ts",
  "README.md",
  "package.json",
] as const;

/** What a person asks at the start of an exchange. */
export const PROMPTS = [
  "The session tests fail on CI since the writer refactor. Find out why and fix it without changing the file format.",
  "Add a --limit flag to `gatehouse session show` that prints only the last N entries, with a test.",
  "Why does resuming a long session feel slow? Measure it and tell me where the time goes.",
  "Rename `appendEntry` to `append` everywhere and make sure the public API docs still match.",
  "The audit plugin drops records when the disk is full. Make that an explicit error instead.",
  "Review packages/host/src/loop/agent-loop.ts for race conditions between steering and tool batches.",
  "Write a README section that explains compaction with a runnable example.",
  "Bump zod to the latest 4.x and fix whatever breaks in the tool schemas.",
] as const;

/** What the model says around its tool calls. */
export const REMARKS = [
  "Let me look at how the writer flushes lines before changing anything.",
  "The failure is in the torn-line detection: the last newline is searched in the decoded string, so I will check the byte offsets next.",
  "I'll run the focused test file to see the exact assertion that fails.",
  "That confirms it. I'll make the smallest change that fixes the offset and add a regression test next to the existing ones.",
  "Before editing, I want to see every caller of this function so the rename stays consistent.",
  "The tests pass now. Let me run the type checker and the linter over the whole workspace.",
  "Done: the change is limited to two files, the new test pins the behaviour, and the full suite passes.",
  "I found the cause. It is not the parser but the O(n) path walk on every append; here is the evidence from the profile.",
] as const;

const IDENTIFIERS = ["session", "entry", "leafId", "writer", "tree", "context", "message", "result", "fd", "line"];
const CALLS = ["appendMessage", "sync", "readSession", "buildContext", "pathTo", "JSON.stringify", "writeSync", "push"];

/** One plausible line of TypeScript. */
export function codeLine(random: Random): string {
  const a = random.pick(IDENTIFIERS);
  const b = random.pick(IDENTIFIERS);
  switch (random.int(0, 4)) {
    case 0:
      return `  const ${a} = ${random.pick(CALLS)}(${b});`;
    case 1:
      return `  if (${a}.${b} === undefined) throw new GatehouseError("GH_SESSION", \`no ${b} in ${a}\`);`;
    case 2:
      return `  for (const ${a} of ${b}.entries()) ${a}s.push(${a});`;
    case 3:
      return `  // Contract: the ${a} is written before the ${b} is synced.`;
    default:
      return `  return { ${a}, ${b}: ${random.pick(CALLS)}(${a}) };`;
  }
}

/** Several lines of code, joined, for edit arguments and read results. */
export function codeBlock(random: Random, lines: number): string {
  return Array.from({ length: lines }, () => codeLine(random)).join("\n");
}

/** Test-runner or shell output of a few hundred characters. */
export function shellOutput(random: Random): string {
  const passed = random.int(20, 240);
  const failed = random.int(0, 3);
  const lines = [
    ` RUN  v4.1.12 /work/main`,
    ` ✓ packages/host/test/session/session.test.ts (${random.int(8, 30)} tests) ${random.int(20, 400)}ms`,
    ` ✓ packages/host/test/session/read-session.test.ts (${random.int(4, 12)} tests) ${random.int(5, 90)}ms`,
  ];
  if (failed > 0) lines.push(` × packages/host/test/session/resume.test.ts > ${random.pick(REMARKS).slice(0, 60)}`);
  lines.push(` Test Files  ${failed > 0 ? `${failed} failed | ` : ""}${random.int(3, 40)} passed`);
  lines.push(`      Tests  ${passed} passed (${passed + failed})`);
  lines.push(`   Duration  ${(random.next() * 9 + 1).toFixed(2)}s`);
  return lines.join("\n");
}
