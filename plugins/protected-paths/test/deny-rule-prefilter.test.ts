import { Minimatch } from "minimatch";
import { describe, expect, it } from "vitest";
import { composeScreen, literalScreen } from "../src/check/literal-screen.ts";
import { compileDenyRule, type MatchView } from "../src/rules/deny-rule.ts";

// The rules compile their globs lazily and skip spellings that lack the pattern's longest literal
// segment. The oracle below is the eager matcher they replaced (every form compiled up front, every
// candidate tested), written out so that a prefilter that skips a real match shows up here.

const HOME = "/home/u";

const compiledOnce = new Map<string, Minimatch>();
function mm(pattern: string, folding: boolean): Minimatch {
  const key = `${folding}\u0000${pattern}`;
  let m = compiledOnce.get(key);
  if (!m) {
    m = new Minimatch(pattern, { dot: true, nocase: folding, nonegate: true, nocomment: true });
    compiledOnce.set(key, m);
  }
  return m;
}

function oracleMatches(pattern: string, folding: boolean, view: MatchView, rootOnly: boolean): boolean {
  let anchor: "absolute" | "workspace-root" | "any-depth";
  let body: string;
  if (pattern === "~" || pattern.startsWith("~/")) [anchor, body] = ["absolute", HOME + pattern.slice(1)];
  else if (pattern.startsWith("/")) [anchor, body] = ["absolute", pattern];
  else if (pattern.startsWith("./")) [anchor, body] = ["workspace-root", pattern.replace(/^(\.\/)+/, "")];
  else [anchor, body] = ["any-depth", pattern.startsWith("**/") ? pattern : `**/${pattern}`];
  const trimmed = body.replace(/\/+$/, "");
  let forms = trimmed !== body ? [trimmed, `${trimmed}/**`] : body.endsWith("/**") ? [body, body.slice(0, -3)] : [body];
  if (rootOnly && forms.length === 2) forms = forms.filter((f) => !f.endsWith("/**"));
  const candidates =
    anchor === "absolute"
      ? [view.absolute]
      : anchor === "workspace-root"
        ? view.relatives
        : view.relatives.length > 0
          ? view.relatives
          : [view.absolute];
  return candidates.some((c) =>
    forms.some((form) => {
      const nfc = form.normalize("NFC");
      const nfd = form.normalize("NFD");
      const cd = c.normalize("NFD");
      if (nfc === nfd) return mm(nfc, folding).match(c) || mm(nfc, folding).match(cd);
      return mm(nfc, folding).match(c) || mm(nfd, folding).match(cd);
    }),
  );
}

const PATTERNS = [
  ".env",
  ".env.*",
  ".env.!(example|sample)",
  ".git/hooks/**",
  ".git/modules/**/config",
  ".git/worktrees/*/commondir",
  "secrets/",
  "Secrets/**",
  "./build/out.txt",
  "~/.ssh/**",
  "/etc/passwd",
  "/opt/gh home/**",
  "{a/key,b}",
  "x/{key,pem}/**",
  "a/../b",
  "a/./b",
  "a//b",
  "dir/[ab]c",
  "k?y",
  "café/**",
  "cafe\u0301.txt",
  "Kelvin",
  "ss/strasse",
  "İndex",
  "\\*literal",
  "#note",
  "!neg",
  "*.pem",
  "a[bc",
  "x*(y)z",
  "?(a)env",
  "id_[rd]sa*",
  "[[:alpha:]]ey",
];

const NAMES = [
  ".env",
  ".ENV",
  ".env.local",
  ".env.example",
  "key",
  "b",
  "a",
  "pem",
  "out.txt",
  "passwd",
  "config",
  "commondir",
  "pre-commit",
  "café",
  "cafe\u0301",
  "café.txt",
  "cafe\u0301.txt",
  "\u212Aelvin",
  "kelvin",
  "ſſ",
  "SS",
  "strasse",
  "ſtraſſe",
  "i̇ndex",
  "index",
  "İndex",
  "ac",
  "bc",
  "kay",
  "*literal",
  "#note",
  "!neg",
  "gh home",
  "key.pem",
  "KEY.PEM",
  "a[bc",
  "xyz",
  "xyyz",
  "xz",
  "env",
  "aenv",
  "id_rsa",
  "id_dsa.pub",
  "ID_RSA",
];

const DIRS = [
  "",
  "secrets/",
  "Secrets/",
  "x/key/",
  "a/",
  "a/b/",
  ".git/",
  ".git/hooks/",
  ".git/modules/m/",
  ".git/worktrees/w/",
  "dir/",
  "café/",
  "build/",
  "ss/",
  "deep/.git/hooks/",
];

function views(): MatchView[] {
  const out: MatchView[] = [];
  for (const dir of DIRS) {
    for (const name of NAMES) {
      const relative = `${dir}${name}`;
      out.push({ absolute: `/ws/${relative}`, relatives: [relative] });
      out.push({ absolute: `/ws/${relative}`.toLowerCase(), relatives: [relative.toLowerCase()] });
    }
  }
  for (const absolute of [
    "/etc/passwd",
    "/home/u/.ssh/id_rsa",
    "/home/u/.ssh",
    "/opt/gh home/x",
    "/opt/GH HOME/x",
    "/tmp/.env",
  ]) {
    out.push({ absolute, relatives: [] });
  }
  return out;
}

describe("lazily compiled deny rules", () => {
  it("match exactly what the eager matcher matches, for every pattern, path and case mode", () => {
    let compared = 0;
    let matched = 0;
    const differences: unknown[] = [];
    for (const folding of [false, true]) {
      for (const pattern of PATTERNS) {
        const rule = compileDenyRule({ pattern, label: pattern, why: "test", folding, home: HOME });
        for (const view of views()) {
          const expected = oracleMatches(pattern, folding, view, false);
          if (rule.matches(view) !== expected) differences.push({ pattern, folding, view, expected });
          const root = rule.subtree ? oracleMatches(pattern, folding, view, true) : expected;
          if (rule.subtree && rule.matchesRoot(view) !== root) {
            differences.push({ pattern, folding, view, root });
          }
          // The walk's name test may only say "no" where the walk's matcher (the root's, for a
          // subtree rule) cannot match.
          const name = view.absolute.split("/").at(-1) ?? "";
          if (!rule.nameMayMatch(name) && root) differences.push({ pattern, folding, view, skippedAMatch: true });
          compared++;
          if (expected) matched++;
        }
      }
    }
    expect(differences).toEqual([]);
    // The corpus exercises both answers, not just refusals of unrelated names.
    expect(compared).toBeGreaterThan(10_000);
    expect(matched).toBeGreaterThan(300);
  });

  it("a pattern longer than minimatch accepts is refused when the rule is made, not at its first check", () => {
    const pattern = "a".repeat(64 * 1024 + 1);
    expect(() => compileDenyRule({ pattern, label: "long", why: "test", folding: false, home: HOME })).toThrow(
      /pattern is too long/,
    );
  });

  it("braces that span a slash do not hide a match from the walk's name test", () => {
    const rule = compileDenyRule({ pattern: "{a/key,b}", label: "braces", why: "test", folding: false, home: HOME });
    expect(rule.matches({ absolute: "/ws/a/key", relatives: ["a/key"] })).toBe(true);
    expect(rule.nameMayMatch("key")).toBe(true);
  });

  it("the rule list's literal screen never hides a match: a view it passes over is matched only by rules without a required text", () => {
    let screened = 0;
    const hidden: unknown[] = [];
    for (const folding of [false, true]) {
      const rules = PATTERNS.map((pattern) =>
        compileDenyRule({ pattern, label: pattern, why: "test", folding, home: HOME }),
      );
      const screen = literalScreen(rules);
      expect(screen.open.length).toBeLessThan(rules.length);
      for (const view of views()) {
        if (screen.mayMatch(view)) continue;
        screened++;
        rules.forEach((rule, i) => {
          if (screen.open.includes(i)) return;
          if (rule.matches(view) || rule.matchesRoot(view)) hidden.push({ pattern: PATTERNS[i], folding, view });
        });
      }
    }
    expect(hidden).toEqual([]);
    // The screen does skip work: most views of the corpus hold none of the literals.
    expect(screened).toBeGreaterThan(100);
  });

  it("the screen is rebuilt when its rule list grows (a policy appends its link-alias rules)", () => {
    const rules = [compileDenyRule({ pattern: ".env", label: ".env", why: "test", folding: false, home: HOME })];
    const view = { absolute: "/ws/keys/id_rsa", relatives: ["keys/id_rsa"] };
    expect(literalScreen(rules).mayMatch(view)).toBe(false);
    rules.push(compileDenyRule({ pattern: "id_rsa", label: "id_rsa", why: "test", folding: false, home: HOME }));
    expect(literalScreen(rules).mayMatch(view)).toBe(true);
  });

  it("a list composed of parts answers as the whole list's own screen, for every view (a policy rebuilt for new reserved paths)", () => {
    for (const folding of [false, true]) {
      const make = (patterns: readonly string[]) =>
        patterns.map((pattern) => compileDenyRule({ pattern, label: pattern, why: "test", folding, home: HOME }));
      const third = Math.floor(PATTERNS.length / 3);
      const parts = [
        make(PATTERNS.slice(0, third)),
        [],
        make(PATTERNS.slice(third, 2 * third)),
        make(PATTERNS.slice(2 * third)),
      ];
      const list = parts.flat();
      const whole = literalScreen([...list]);
      composeScreen(list, parts);
      const composed = literalScreen(list);
      expect(composed).not.toBe(whole);
      expect(composed.open).toEqual(whole.open);
      const differ = [...views()].filter((view) => composed.mayMatch(view) !== whole.mayMatch(view));
      expect(differ).toEqual([]);
    }
    expect(() =>
      composeScreen(
        [],
        [[compileDenyRule({ pattern: ".env", label: ".env", why: "test", folding: false, home: HOME })]],
      ),
    ).toThrow(/the parts hold 1 rules, the list 0/);
  });
});
