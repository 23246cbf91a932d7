#!/usr/bin/env bash
# The install path a team lead takes, tested on packed tarballs (SPEC §1, issue 12): pack every
# package, install them with npm into a project outside this repository, and use them there the way
# the README says — the CLI by name, both plugins from settings, a drop-in .ts extension, the host
# from plain Node, an extension type-checked by tsc (NodeNext, strict), an extension scaffolded by
# `gatehouse init extension` tested with npx vitest through @gatehouse/testing, and a global install.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/gatehouse-install-XXXXXX")
trap 'rm -rf "$work"' EXIT
packs="$work/packs" project="$work/project" home="$work/home" prefix="$work/global"
mkdir -p "$packs" "$project" "$home"
export GATEHOUSE_HOME="$home"
step() { printf '\n== %s\n' "$*"; }
fail() { echo "install test FAILED: $*" >&2; exit 1; }

step "pack every package"
(cd "$repo" && pnpm -r --filter "./packages/*" --filter "./plugins/*" pack --pack-destination "$packs" >/dev/null)
ls "$packs"
tarballs=("$packs"/gatehouse-sdk-*.tgz "$packs"/gatehouse-host-*.tgz "$packs"/gatehouse-protected-paths-*.tgz \
  "$packs"/gatehouse-tool-audit-*.tgz "$packs"/gatehouse-cli-*.tgz)

step "publint and arethetypeswrong on each tarball"
for t in "$packs"/*.tgz; do
  (cd "$repo" && pnpm exec publint run "$t" --strict) || fail "publint: $t"
  (cd "$repo" && pnpm exec attw "$t" --profile esm-only --quiet) || fail "attw: $t"
done

step "npm install the tarballs into a plain project outside the repository"
cd "$project"
npm init -y >/dev/null
npm pkg set type=module >/dev/null
npm install --no-audit --no-fund "${tarballs[@]}" typescript@5.9.3 @types/node@20.19.43 >/dev/null
version=$(npx gatehouse --version)
[ "$version" = "$(node -p "require('$repo/packages/cli/package.json').version")" ] || fail "npx gatehouse --version said '$version'"
echo "npx gatehouse --version: $version"

step "gatehouse run with both plugins from settings and a drop-in .ts extension"
mkdir -p .gatehouse/extensions
cat > .gatehouse/settings.json <<'JSON'
{ "extensions": ["@gatehouse/protected-paths", "@gatehouse/tool-audit"] }
JSON
cat > .gatehouse/extensions/shout.ts <<'TS'
import { defineExtension, defineTool, z } from "@gatehouse/sdk";

export default defineExtension({
  name: "shout",
  setup(api) {
    api.registerTool(
      defineTool({
        name: "shout",
        description: "Upper-cases a text.",
        parameters: z.object({ text: z.string() }),
        effects: () => [],
        execute: async ({ text }) => ({ content: [{ type: "text", text: text.toUpperCase() }] }),
      }),
    );
  },
});
TS
cat > script.json <<'JSON'
{ "turns": [
  { "content": [
    { "type": "toolCall", "id": "A", "name": "shout", "arguments": { "text": "hi" } },
    { "type": "toolCall", "id": "B", "name": "write", "arguments": { "path": ".env", "content": "X=1" } },
    { "type": "toolCall", "id": "C", "name": "write", "arguments": { "path": "notes.txt", "content": "ok" } } ] },
  { "content": [ { "type": "text", "text": "done" } ] } ] }
JSON
npx gatehouse trust
npx gatehouse run --script script.json --json > events.jsonl || fail "gatehouse run exited $?"
node -e '
  const ends = require("fs").readFileSync("events.jsonl", "utf8").trim().split("\n").map(JSON.parse)
    .filter((e) => e.type === "tool_execution_end");
  const by = Object.fromEntries(ends.map((e) => [e.toolCallId, e]));
  const text = (e) => e.result.content.map((c) => c.text).join("");
  if (by.A?.outcome !== "executed" || text(by.A) !== "HI") throw new Error("shout did not run: " + JSON.stringify(by.A));
  if (by.B?.outcome !== "blocked" || by.B.blockedBy !== "protected-paths") throw new Error(".env was not blocked");
  if (by.C?.outcome !== "executed") throw new Error("notes.txt was not written");
  console.log("shout → HI, .env blocked by protected-paths, notes.txt written");
'
[ ! -e .env ] || fail ".env exists"
[ "$(cat notes.txt)" = "ok" ] || fail "notes.txt"
npx gatehouse audit verify || fail "audit verify"

step "the host library from plain Node"
node --input-type=module -e "
  const host = await import('@gatehouse/host');
  const sdk = await import('@gatehouse/sdk');
  for (const name of ['createHost', 'createScriptedModel', 'Session']) if (!host[name]) throw new Error('missing export ' + name);
  if (typeof sdk.defineExtension !== 'function') throw new Error('sdk');
  console.log('import(\"@gatehouse/host\"): ok');
"

step "tsc --noEmit (NodeNext, strict) on an extension importing @gatehouse/sdk"
mkdir -p src
cat > tsconfig.json <<'JSON'
{ "compilerOptions": { "module": "NodeNext", "moduleResolution": "NodeNext", "target": "ES2022", "strict": true,
  "noEmit": true, "skipLibCheck": false, "types": ["node"] }, "include": ["src"] }
JSON
cp .gatehouse/extensions/shout.ts src/shout.ts
cat > src/uses-host.ts <<'TS'
import { createHost, createScriptedModel } from "@gatehouse/host";
import protectedPaths from "@gatehouse/protected-paths";

const host = await createHost({ cwd: process.cwd(), model: createScriptedModel({ turns: [] }), extensions: [protectedPaths] });
await host.close();
TS
npx tsc -p tsconfig.json || fail "tsc"
echo "tsc: ok"

step "gatehouse init extension: the scaffold type-checks and its test passes with npx vitest (README, verbatim)"
# The README's "Scaffold one with a test" commands, with this test's tarball folder.
npx gatehouse init extension no-lock-edits
npm install -D --no-audit --no-fund "$packs"/gatehouse-{sdk,host,testing}-*.tgz vitest@4.1.12 >/dev/null
# The README's example test, next to the scaffolded one: it must pass as printed.
node -e '
  const readme = require("fs").readFileSync(process.argv[1], "utf8");
  const section = readme.slice(readme.indexOf("**Scaffold one with a test.**"));
  const block = section.match(/```ts\n([\s\S]*?)```/);
  if (!block) throw new Error("README: no ts block in the Scaffold section");
  require("fs").writeFileSync(".gatehouse/extensions/no-lock-edits/readme.test.ts", block[1]);
' "$repo/README.md"
NO_COLOR=1 npx vitest run .gatehouse/extensions/no-lock-edits > vitest.log 2>&1 || { cat vitest.log; fail "npx vitest run"; }
sed 's/\x1b\[[0-9;]*m//g' vitest.log | grep -Eq "Tests +3 passed \(3\)" || { cat vitest.log; fail "the scaffolded tests did not all run"; }
echo "npx vitest run: 3 passed (2 scaffolded, 1 from the README)"
npx tsc -p .gatehouse/tsconfig.json || fail "tsc on the scaffolded extension and its tests"
echo "tsc -p .gatehouse/tsconfig.json: ok"
npx gatehouse extensions --trust | grep -E "no-lock-edits +loaded" || fail "the host does not load the scaffold"

step "pnpm add of the tarballs, with the README's overrides (pnpm looks their dependencies on each other up on the registry)"
pproject="$work/pnpm project"
mkdir -p "$pproject"
echo '{ "name": "pnpm-project", "version": "1.0.0", "private": true }' > "$pproject/package.json"
# The README's commands, verbatim but for this test's tarball folder.
node -e '
  const readme = require("fs").readFileSync(process.argv[1], "utf8");
  const section = readme.slice(readme.indexOf("With pnpm (10 or 12)"));
  const block = section.match(/```sh\n([\s\S]*?)```/);
  if (!block) throw new Error("README: no sh block in the pnpm paragraph of Install");
  process.stdout.write(block[1].replaceAll("/tmp/gatehouse/", process.argv[2] + "/"));
' "$repo/README.md" "$packs" > "$work/pnpm-install.sh"
(cd "$pproject" && bash -euo pipefail "$work/pnpm-install.sh" >/dev/null) || fail "pnpm add as the README says"
cp "$project/script.json" "$pproject/"
# Installed per project, the guards are the project's own files: they run once it is trusted (README).
(cd "$pproject" && pnpm exec gatehouse trust >/dev/null) || fail "gatehouse trust (pnpm project)"
(cd "$pproject" && pnpm exec gatehouse run --script script.json --json > events.jsonl) || fail "gatehouse run (pnpm project)"
grep -q '"blockedBy":"protected-paths"' "$pproject/events.jsonl" || fail "pnpm project: .env was not blocked"
[ ! -e "$pproject/.env" ] || fail "pnpm project: .env exists"
(cd "$pproject" && pnpm exec gatehouse audit verify >/dev/null) || fail "audit verify (pnpm project)"
echo "pnpm $(pnpm --version): installed, .env blocked, audit intact"

step "npm i -g puts gatehouse on the PATH"
npm install -g --prefix "$prefix" --no-audit --no-fund "${tarballs[@]}" >/dev/null
PATH="$prefix/bin:$PATH" gatehouse --version >/dev/null || fail "global gatehouse"
echo "global: $(PATH="$prefix/bin:$PATH" command -v gatehouse)"

step "gatehouse hook claude-code from the global install: full evaluation, then decisions from the plan"
hooked="$work/hooked"
mkdir -p "$hooked/.gatehouse"
echo '{ "extensions": ["@gatehouse/protected-paths", "@gatehouse/tool-audit"] }' > "$hooked/.gatehouse/settings.json"
payload() {
  printf '{"session_id":"s","transcript_path":"%s/t.jsonl","cwd":"%s","hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":"%s/%s","content":"x"},"tool_use_id":"toolu_%s"}' \
    "$hooked" "$hooked" "$hooked" "$1" "$2"
}
# The command exactly as `gatehouse hook install` writes it into .claude/settings.json, run the way
# Claude Code runs it (sh -c).
(cd "$hooked" && PATH="$prefix/bin:$PATH" gatehouse hook install claude-code --project >/dev/null) || fail "hook install"
installed=$(node -e 'console.log(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).hooks.PreToolUse[0].hooks[0].command)' "$hooked/.claude/settings.json")
echo "installed command: $installed"
hook() { (cd "$hooked" && PATH="$prefix/bin:$PATH" CLAUDE_PROJECT_DIR="$hooked" sh -c "$installed"); }
for n in 1 2 3; do
  payload .env "deny$n" | hook | grep -q '"permissionDecision":"deny"' || fail "hook call $n did not deny a write to .env"
  [ -z "$(payload notes.md "allow$n" | hook)" ] || fail "hook call $n had an opinion on an allowed write"
done
ls "$prefix"/lib/node_modules/@gatehouse/cli/dist/hook.cjs.v8-cache >/dev/null || fail "no code cache beside dist/hook.cjs"
(cd "$hooked" && PATH="$prefix/bin:$PATH" gatehouse audit verify) || fail "audit verify of the hook calls"
echo "hook: .env denied and notes.md allowed, 3 times each (the first evaluated fully); code cache written; audit intact"

echo
echo "install test: ok"
