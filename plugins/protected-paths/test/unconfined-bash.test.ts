import { linkSync, symlinkSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createPolicy, type Policy } from "../src/index.ts";
import { createFixture, exec, type Fixture, reasonOf, ruleOf } from "./helpers/fixture.ts";
import { type AttemptContext, escapeAttempts } from "./sandbox-corpus/escape-attempts.ts";
import { EVERYDAY } from "./sandbox-corpus/everyday-commands.ts";

/** Expects every command to be allowed, naming the first refusal. */
function expectAllowed(policy: Policy, commands: readonly string[]): void {
  for (const command of commands) {
    const decision = policy.check(exec(command));
    expect(decision.allow ? "allowed" : decision.reason, command).toBe("allowed");
  }
}

/** The policy an agent hook decides with: commands will run without the sandbox. */
function unconfined(f: Fixture, mode: "unconfined" | "analyze" = "unconfined"): Policy {
  return createPolicy({}, { cwd: f.ws, home: f.home, gatehouseHome: path.join(f.base, "gh"), unconfinedBash: mode });
}

/**
 * Escape attempts of the sandbox corpus whose harm is not a path: the hook path cannot stop
 * them (the agent's own processes and environment), as the README's agent-hook section says.
 */
const NOT_PATHS: Record<string, string> = {
  r26: "reads an API key from the environment the agent gave the shell",
  o13: "leaves a background job running",
  o14: "leaves a setsid process running",
  o15: "leaves a nohup process running",
};

describe("bash without a sandbox (agent hooks): only what the analysis models may run", () => {
  it("refuses a step of every escape attempt of the sandbox corpus whose harm is a path", () => {
    const f = createFixture();
    const policy = unconfined(f);
    const ctx: AttemptContext = {
      outside: f.outside,
      base: f.base,
      gh: path.join(f.base, "gh"),
      port: 9,
      backgroundMarker: "GH-BG-MARKER",
      tmpCanary: "/tmp/gh-unconfined-canary",
      hostCanary: "gh-host-canary",
      canaryPid: 1,
    };
    const through: string[] = [];
    let checked = 0;
    for (const attempt of escapeAttempts(ctx).flat()) {
      const commands = attempt.calls.filter((c) => c.name === "bash").map((c) => c.arguments.command as string);
      if (commands.length === 0 || Object.hasOwn(NOT_PATHS, attempt.id)) continue;
      checked += 1;
      // Each call is its own hook invocation: the attempt fails if any of its steps is refused.
      if (commands.every((command) => policy.check(exec(command)).allow)) through.push(`${attempt.id} ${attempt.what}`);
    }
    expect(checked).toBeGreaterThan(80);
    // Attempts that need files an earlier call planted are pinned below, with those files.
    expect(through.filter((t) => !/^(p1|p3|p4|r30) /.test(t))).toEqual([]);
  });

  it("follows links and hard links planted earlier, as for the file tools", () => {
    const f = createFixture();
    symlinkSync(f.outside, path.join(f.ws, "rl"));
    symlinkSync(path.join(f.ws, ".env"), path.join(f.ws, "env-link"));
    linkSync(path.join(f.ws, ".env"), path.join(f.ws, "docs", "env-copy.txt"));
    const policy = unconfined(f);
    expect(reasonOf(policy.check(exec("echo PWNED > rl/notes.txt")))).toMatch(/outside the workspace/);
    expect(ruleOf(policy.check(exec("cat env-link")))).toBe("default denyRead .env");
    expect(reasonOf(policy.check(exec("cat docs/env-copy.txt")))).toMatch(/hard link|\.env/);
  });

  it.each([
    ['python3 -c \'open(".env","w")\'', /python3 runs code/],
    ["node -e 1", /node runs code/],
    ["npm test", /npm runs code/],
    ["./build.sh", /runs a program by path/],
    ["sudo cat /etc/shadow", /another user/],
    ["bash < script.sh", /without -c/],
    ["bash script.sh", /without -c/],
    ["bash --rcfile ./rc -ic 'ls'", /start-up file/],
    ["bash -lc 'echo x > .env'", /\.env/],
    [". ./env.sh", /\. runs code/],
    ["awk 'BEGIN{system(\"id\")}'", /awk runs code/],
    ["PATH=.:$PATH ls", /sets PATH/],
    ["export LD_PRELOAD=./x.so; ls", /sets LD_PRELOAD/],
    ["env GIT_DIR=x git status", /sets GIT_DIR/],
    ["echo $((x))", /arithmetic/],
    ["if ((1<<2)); then :; fi\ncp evil .env", /arithmetic/],
    ["[[ $x -eq 1 ]] && ls", /arithmetic/],
    ["git -c core.fsmonitor='touch /tmp/x' status", /git -c/],
    ["git config core.hooksPath x", /git config/],
    ["git diff --no-index .env /dev/null", /--no-index/],
    ["git log --output=.env", /--output/],
    ["git add -f .env", /\.env/],
    ["git show HEAD:.env", /\.env/],
    ["git diff --stat -- src .env", /\.env/],
    ["sed -n '1e id' README.md", /sed script/],
    ["sed 's/a/b/w .env' README.md", /sed script/],
    ["sed -f script.sed README.md", /sed -f/],
    ["rg --pre ./x foo", /--pre/],
    ["sort --compress-program=./x a", /compress-program/],
    ["cat $(echo .env)", /command substitution/],
    ["f=.env; cat $f", /variable/],
    ["cd $(mktemp -d) && cat x", /directory a cd chose|depends on a command substitution/],
    ["grep -r SECRET .", /\.env/],
    ["rg --hidden SECRET", /\.env/],
    ["rg -uu SECRET src ..", /\.env/],
    ["find . -name .env -exec cat {} \\;", /\.env/],
    ["xargs cat < list.txt", /cannot be checked|arguments read by xargs/],
    ["function f { python3 -c 1; }; f", /hides commands/],
    ["case x in x) python3 -c 1;; esac", /hides commands|python3/],
    // GNU getopt and git take any unambiguous prefix of a long option: unconfined, only full names pass.
    ["grep --recur -H . .", /spell long options in full/],
    ["grep --directories=recurse -H SECRET .", /\.env/],
    ["grep --direc recurse SECRET .", /spell long options in full/],
    ["sed --expr='1e cat .env' = README.md", /spell long options in full/],
    ["sed --expression '1e id' README.md", /sed script/],
    ["sort --outp=.mcp.json README.md", /spell long options in full/],
    ["sort --compress=./x a", /spell long options in full/],
    ["printf '.env\\0' > list && sort --files0-from=list", /files0-from/],
    ["git commit -q --allow-empty --fil=.env.local", /--fil/],
    ["git log --outp=x", /--outp/],
    ["ln --sym .env x", /spell long options in full/],
    ["rm --recur .git", /spell long options in full/],
    // File names in option values, and trees read whole.
    ["diff --from-file=.env README.md", /\.env/],
    ["diff --to-file .env.local README.md", /\.env/],
    ["diff -rN . /nonexistent", /\.env/],
    ["diff --recursive docs .", /\.env/],
    ["cp -a . sub", /\.env/],
    ["cp --archive . sub", /\.env/],
    ["cp -r . sub", /\.env/],
    // Revisions with colons of their own; a forced add stages ignored files.
    ["git show :0:.env", /\.env/],
    ["git show 'HEAD@{2099-01-01 00:00}:.env'", /\.env/],
    ["git add -f . && git diff --cached", /\.env/],
    ["git add --force .", /\.env/],
    // A link, a moved folder or a copied tree where a rule protects something inside it.
    ["mkdir -p sub && ln -s sub .claude", /\.claude\/settings\.json/],
    ["ln -s sub .vscode", /\.vscode\/tasks\.json/],
    ["mkdir x && echo '{}' > x/settings.json && mv x .claude", /\.claude\/settings\.json/],
    ["mkdir x && echo '{}' > x/tasks.json && cp -r x .vscode", /\.vscode\/tasks\.json/],
    ["mkdir -p .claude && ln -s .claude c && echo '{}' > c/settings.json", /\.claude\/settings\.json/],
    ["ln -s ~ h && echo x > h/.gitconfig", /gitconfig|home/],
    // Options that name files to read or write, make links, or run programs: only modelled options pass.
    ["xargs -a .env echo", /xargs -a is not an option/],
    ["xargs --arg-file=.env echo", /xargs --arg-file is not an option/],
    ["xargs --process-slot-var=BASH_ENV bash -c : < /dev/null", /--process-slot-var/],
    ["find sub -maxdepth 0 -exec cat + .env \\;", /\.env/],
    ["find -files0-from .env", /-files0-from/],
    ["find . -name x -fprint .envrc", /-fprint/],
    ["wc --files0-from=.env", /--files0-from/],
    ["du --files0-from=.env", /--files0-from/],
    ["file -f.env", /file -f/],
    ["file --files-from=.env", /--files-from/],
    ["file -m.env README.md", /file -m/],
    ["MAGIC=.env file README.md", /sets MAGIC/],
    ["hexdump -f .env README.md", /hexdump -f/],
    ["strings @.env", /@FILE/],
    ["git blame --contents=.env README.md", /--contents/],
    ["git blame --ignore-revs-file=.env README.md", /--ignore-revs-file/],
    ["sed --expr=p -n .env", /spell long options in full/],
    ["sed --in-pl 's/a/b/' .git/config", /spell long options in full/],
    ["sed -i --expression='s/a/b/' .git/config", /\.git\/config/],
    ["git add -f '.en?'; git diff --cached", /pathspec/],
    ["git add -f ':(top).env'", /pathspec/],
    ["bash -O nocaseglob -c 'cat .EN[V]'", /without -c|nocaseglob|-O/],
    ["cp -b -S g README.md .git/confi", /cp -b/],
    ["mv -b -S n README.md .mcp.jso", /mv -b/],
    ["command time -o.envrc -f'cat .env' true", /time -o/],
    ["cp -s .git/config l", /cp -s/],
    ["cp -l .git/config l", /cp -l/],
    ["cp --parents hooks/pre-commit .git", /--parents/],
    // The link alone is refused first now (its target, read from r, names a folder .git under r).
    [
      "ln -s .git/refs r; set -P; cd r/..; echo x > hooks/pre-commit",
      /set with operands|set -P|create the folder|\.git folder/,
    ],
    ["ln -s .git/refs r; cd -P r/..; echo x > hooks/pre-commit", /cd chose|create the folder|\.git folder/],
    ["set -P; cd src/..; echo x > hooks/pre-commit", /set with operands|set -P/],
    ["cd -P src/..; echo x > hooks/pre-commit", /cd chose/],
    ["cd .git && printf x >> /proc/self/cwd/config", /\/proc path/],
    ["git --shallow-file status config core.fsmonitor x", /--shallow-file/],
    ["git branch -u master x", /branch -u/],
    ["printf -v 'a[$(cat .env >&2)]' x", /arithmetic/],
    ["test -v 'a[$(cat .env >&2)]'", /arithmetic/],
    // The builtin that evaluates the subscript is the one that runs, behind reserved words, assignments and wrappers.
    ["if test -v 'a[$(touch .git/hooks/pre-commit)]'; then :; fi", /arithmetic/],
    ["! printf -v 'a[$(cat .env >&2)]' x", /arithmetic/],
    ["X=1 unset 'a[$(cat .env >&2)]'", /arithmetic/],
    ["{ declare 'a[$(cat .env >&2)]'=1; }", /arithmetic/],
    ["time local 'a[$(cat .env >&2)]'", /arithmetic/],
    ["command -- test -v 'a[$(cat .env >&2)]'", /arithmetic/],
    ["builtin export 'a[$(cat .env >&2)]'", /arithmetic/],
    ["while [ -v 'a[$(cat .env >&2)]' ]; do :; done", /arithmetic/],
    // Two paths to git diff, one outside the repository, are diff --no-index: both read whole.
    ["git diff ../outside .", /\.env/],
    ["git diff -- ../outside .", /\.env/],
    // A quoted word may be the -v itself, naming the word after it.
    [`op=-v; x='a[$(touch .git/hooks/pre-commit)]'; test "${"$"}op" "${"$"}x"`, /depends on a variable/],
    [`op=-R; x='a[$(cat .env >&2)]'; [ "${"$"}op" "${"$"}x" ]`, /depends on a variable/],
    [`op=-v; if test ! "${"$"}op" a?x?; then :; fi`, /depends on a variable/],
    [`y='a[$(cat .env >&2)]'; echo ${"$"}{PWD:y}`, /arithmetic/],
    [`y='a[$(cat .env >&2)]'; echo ${"$"}{!y}`, /arithmetic/],
    ["PS4='$(cat .env >&2)'; set -x; true", /sets PS4/],
    ["declare -n r=PATH; r=.; ls", /declare -n/],
    ["set -k; bash -c : BASH_ENV=x.sh", /set with operands/],
    ["XDG_CONFIG_HOME=./x git status --short", /sets XDG_CONFIG_HOME/],
    ["cd b; git diff HEAD", /git runs in a directory a cd chose/],
    // Round three: words that expand to options, options that take a value, functions named like builtins.
    ["grep $(echo API .env)", /depends on a command substitution/],
    ['X="API .env"; grep $X', /depends on a variable/],
    ['rg "$(printf -- --pre=sh)" src', /depends on a command substitution/],
    ["sort -k $(echo 1 -o .git/hooks/pre-commit) src/app.ts", /depends on a command substitution/],
    ["od -w .env", /\.env/],
    ["xargs --max-procs 1 -a .env echo", /xargs -a/],
    ["xargs --delimiter : -a .env echo", /xargs -a/],
    ["du --exclude -- --files0-from=.env", /--files0-from/],
    ['echo() { grep "$@"; }; echo API .env', /defines a function/],
    ["printf '!.env\\n' > .ignore && rg API", /\.env/],
    ["grep --include -- --exclude-from=.env x src/app.ts", /--exclude-from/],
    ["git ls-files --exclude-from=.env -o", /--exclude-from/],
    // Round four: here-document ends as bash finds them, optional option values, POSIXLY_CORRECT.
    ["true <<~\n~\npython3 -c \"print(open('.env').read())\"", /python3/],
    ['true <<"$HOME"\n$HOME\ncat .env', /\.env/],
    ["cat <<EOF\nhello\nEO\\\nF\ncat .env\nEOF", /\.env/],
    ["echo .env | xargs --replace cat echo {}", /cat|arguments read by xargs|cannot be checked/],
    ["echo .env | xargs --max-lines cat echo", /max-lines|cannot be checked|arguments read by xargs/],
    ["POSIXLY_CORRECT=1 head src/app.ts -n .env", /POSIXLY_CORRECT/],
    ["export POSIXLY_CORRECT=1; grep x src/app.ts -e .env", /POSIXLY_CORRECT/],
    ["date -f .env", /date -f/],
    ["date --file=.env", /--file/],
    ["grep --color SECRET .env", /\.env/],
    ["grep --context SECRET .env", /\.env/],
    ["diff --unified .env /dev/null", /\.env/],
    ["diff --context .env /dev/null", /\.env/],
    ["hexdump -o .env", /\.env/],
    ["git show -m HEAD~1:.env", /\.env/],
    ["git show --pretty HEAD~1:.env", /\.env/],
    ["git log -p -m .env", /\.env/],
    ["git add -f -A && git diff --cached", /\.env/],
    ["git add --force --all", /\.env/],
    ["git add -f", /\.env/],
    // A negated bracket expression, and variables assigned by printf.
    ["cat .en[!x]", /\.env/],
    ["printf -v PATH %s /tmp/bin && cat README.md", /printf -v sets PATH/],
    ["printf -vPATH %s /tmp/bin", /printf -v sets PATH/],
    ["printf -v $name x", /printf -v/],
    // Round six: here-document delimiters bash reads differently, arithmetic through a variable
    // named in a subscript, assignments quoted for a builtin, printf/date options from variables,
    // the directory stack, link targets given as globs, and staging a protected file.
    ["cat <<$'AB'\nhello\nAB\ncat .env; echo owned > .git/hooks/pre-push\n$AB\necho done", /here-document delimiter/],
    ['cat <<$"AB"\nhello\nAB\ncat .env\n$AB', /here-document delimiter/],
    ["cat <<E\\\nOF\nx\nEOF\ncat .env\nE\nOF\n", /here-document delimiter/],
    ["x='y[$(cat .env >&2)]'; a[x]=1", /subscript as arithmetic/],
    ["x='y[$(cat .env)]'; a[x+1]=1", /subscript as arithmetic/],
    ["x='y[$(cat .env)]'; unset 'a[x]'", /evaluates arithmetic/],
    ["read -r 'a[x]' < src/app.ts", /evaluates arithmetic/],
    ["declare 'a[x]=1'", /evaluates arithmetic/],
    ["test -v 'a[x]'", /evaluates arithmetic/],
    ["let 'a=1'", /evaluates arithmetic/],
    ['export "BASH_ENV=x.sh" && bash -c true', /sets BASH_ENV/],
    ["declare 'PATH=/tmp/bin:/usr/bin'; cat src/app.ts", /sets PATH/],
    ['declare P"ATH=/tmp"; cat src/app.ts', /sets PATH/],
    ["export $X", /depends on a variable/],
    ["env 'BASH_ENV=x.sh' bash -c true", /sets BASH_ENV/],
    ["V=-v; printf $V PATH %s bin:/usr/bin; cat src/app.ts", /may be -v/],
    ["D=-f; date $D .env", /depends on a variable/],
    ["echo -f .env | xargs date", /arguments read by xargs/],
    ["unset $X", /depends on a variable/],
    ["[ $X ]", /depends on a variable/],
    ['[ -v "$X" ]', /depends on a variable/],
    ["OLDPWD=.git/hooks; cd - && echo x > pre-commit", /sets OLDPWD/],
    ["cd - && echo x > pre-commit", /relative/],
    [
      "pushd -n src >/dev/null; DIRSTACK[1]=.git/hooks; pushd +1 >/dev/null; echo pwned > post-merge",
      /DIRSTACK|relative/,
    ],
    ["pushd +1 && echo x > pre-commit", /relative/],
    ["GLOBIGNORE=x; cat *", /GLOBIGNORE/],
    ["ln -s .en? l && cat l", /\.env/],
    ["ln -s .git/hook[s] h && echo x > h/pre-commit", /\.git\/hook/],
    ["git add . && git diff --cached", /\.env/],
    ["git add -A && git commit -qm done", /\.env/],
    ["git add docs .", /\.env/],
    ["sleep 1 & wait -p PATH; cat src/app.ts", /wait -p/],
    // Round seven: variables set by for, {NAME}> and unset; globs that become options or
    // subscripts; git's other spelling of --all; here-documents inside $( ) and expanding bodies.
    ["mkdir -p 10 && for PATH in 10; do cat src/app.ts; done", /sets PATH/],
    ["for BASH_ENV in ./evil.sh; do export BASH_ENV; done; bash -c true", /sets BASH_ENV/],
    ["export BASH_ENV", /sets BASH_ENV/],
    [": {PATH}>/dev/null; cat src/app.ts", /assigns a variable/],
    ["x='b[$(cat .env >&2)]'; : {a[x]}>/dev/null", /assigns a variable/],
    ["unset PATH; cat src/app.ts", /sets PATH/],
    ["touch ./-v && printf ?v PATH bin; cat src/app.ts", /may expand to an option/],
    ["touch ./-f; date ?f .env", /may expand to an option/],
    ['touch ./-i && sed -e "s/a/b/" ?i .claude/settings.json', /may expand to an option/],
    ["touch ./-o && sort ?o .git/hooks/pre-commit src/app.ts", /may expand to an option/],
    ["touch ./-t && cp ?t .git/hooks src/app.ts", /may expand to an option/],
    ["git add --no-ignore-removal && git diff --cached", /\.env/],
    ["echo $(cat <<EOF\nEOF)\ncat .env\nEOF\n)", /starts with its delimiter/],
    ["touch \"a[x]\"; x='b[$(cat .env >&2)]'; test -v a?x?", /evaluates arithmetic/],
    [`x='b[$(cat .env >&2)]'; v=abc; cat <<EOF\n${"$"}{v:x}\nEOF`, /here-document expands/],
    // Round eight: diff of folders, bracket forms the glob library does not know, find's {} in a
    // longer word and -execdir, sed backup suffixes with a slash.
    ["diff -N . src", /\.env/],
    ["diff --new-file . src", /\.env/],
    ["cat .[x[=e=]]nv", /bracket expression/],
    ["printf 'x' >> docs/confi[x[.g.]]", /bracket expression/],
    ["touch .en && find . -maxdepth 1 -name .en -exec cat {}v \\;", /path find puts into/],
    ["find . -path ./.git/hooks -exec cp src/app.ts {}/pre-commit \\;", /path find puts into/],
    ["find .git/hooks -name x -execdir cp /tmp/evil pre-commit \\;", /find -execdir/],
    ["sed -i'.git/*' s/x/x/ src/app.ts", /suffix with a \//],
    // Round ten: a moved relative link points somewhere new; descriptor paths name what the shell opened.
    ['mkdir z && ln -s hooks z/l && mv z/l docs/l && printf "x" > docs/l/pre-commit', /does not exist before/],
    ["mkdir z && ln -s . z/l && mv z/l l && grep -r SECRET l/", /does not exist before/],
    ["grep -r SECRET /dev/fd/9 9<.", /descriptor path/],
    ["grep -r SECRET /proc/self/fd/3/ 3<.", /descriptor path/],
    ["grep -r SECRET /dev/stdin/ < .", /descriptor path/],
    // Round nine: variables assigned as they expand.
    [`: ${"$"}{CDPATH:=/proj/.git}`, /assigns a variable/],
    [`: ${"$"}{CDPATH=/proj/.git}; cd hooks && echo x > pre-commit`, /assigns a variable/],
    [`true "${"$"}{GLOBIGNORE:=x}"`, /assigns a variable/],
    [`cat <<EOF\n${"$"}{X:=1}\nEOF`, /here-document expands/],
  ])("refuses %j", (command, reason) => {
    const f = createFixture();
    expect(reasonOf(unconfined(f).check(exec(command)))).toMatch(reason);
  });

  it("lets everyday commands the analysis models run, and refuses those that run code", () => {
    const f = createFixture();
    const policy = unconfined(f);
    const allowed = EVERYDAY.filter((e) => policy.check(exec(e.command)).allow).map((e) => e.id);
    // e3 (`git add -A`) stages the whole tree, `.env` included unless git ignores it, and the
    // analysis cannot know what git ignores (`.gitignore` is the agent's to change).
    expect(allowed).toEqual(["e1", "e2", "e7", "e8", "e13", "e15", "e16", "e17"]);
    for (const command of [
      "ls -la src && wc -l src/app.ts",
      "sed -n '1,200p' src/app.ts",
      "grep -rn TODO src",
      "rg -n 'fn main' src",
      "git status --short && git diff --stat && git log --oneline -5",
      "git add src docs && git commit -qm done",
      "set -euo pipefail; mkdir -p out && cp src/app.ts out/ && rm -rf out",
      "find src -name '*.ts' | head -20",
      "bash -lc \"rg -n TODO src && nl -ba src/app.ts | sed -n '1,40p'\"",
      "cd src && ls && cat app.ts | wc -l",
      "cat > playground/notes.md <<'EOF'\nhello\nEOF",
      "diff src/app.ts docs/env.md",
      "diff -u --label a src/app.ts docs/env.md",
      "cp -r src out",
      "git show HEAD:src/app.ts",
      "printf -v greeting %s hi",
      "ls -d src/[!.]* | head",
      "mkdir -p .claude && mv playground/x.txt .claude/notes.txt",
      "mv src lib && ln -s lib/app.ts app.ts",
      "head -20 src/app.ts && tail -n +5 src/app.ts | cut -d, -f1",
      "sed -i.bak 's/a/b/' src/app.ts",
      "chmod -w src/app.ts && chmod +x src/app.ts",
      "git log --oneline -n 5 --grep='fix*' && git commit -qm 'fix [x]'",
      "find src -name '*.ts' -type f -print",
      `echo ${"$"}{HOME:-/tmp} && set -euo pipefail`,
      "sort -k2,2 -o out.txt src/app.ts && uniq -c out.txt",
      "git rev-parse --git-dir && git diff --text && git log -S foo && git blame -C src/app.ts",
      "git branch --list 'feat*' && ls -G && date",
      "rg -P 'a|b' src && rg -r X foo src && diff -W 200 -x '*.o' src docs",
      "tree --dirsfirst -L 2 src && find src -newermt 2020-01-01 -samefile src/app.ts",
      "wc --total=never src/app.ts",
      "cat <<'EOF' > playground/h.md\n~\nEOF",
      "date -u +%Y && date -d yesterday",
      "git commit -qm 'msg' && git show --stat -m HEAD",
    ]) {
      expect(ruleOf(policy.check(exec(command))), command).toBe("allow");
    }
  });

  it("checks everything below a searched tree, dot-files included (an ignore file the agent writes can whitelist them for rg)", () => {
    const f = createFixture();
    f.file("secrets/key.txt");
    const policy = createPolicy(
      { denyRead: ["secrets/**"] },
      { cwd: f.ws, home: f.home, unconfinedBash: "unconfined" },
    );
    expect(reasonOf(policy.check(exec("rg SECRET")))).toMatch(/secrets/);
    expect(policy.check(exec("rg SECRET src docs")).allow).toBe(true);
    expect(reasonOf(unconfined(f).check(exec("rg SECRET")))).toMatch(/\.env/);
    expect(reasonOf(unconfined(f).check(exec("grep -rn SECRET docs ..")))).toMatch(/\.env/);
  });

  it("with agentHooks.bash analyze, only the best-effort analysis decides", () => {
    const f = createFixture();
    const policy = unconfined(f, "analyze");
    expect(policy.check(exec("npm test")).allow).toBe(true);
    expect(ruleOf(policy.check(exec("echo x > .env")))).toBe("default denyWrite .env");
    expect(reasonOf(policy.check(exec("f=.env; echo x > $f")))).toMatch(/variable/);
  });

  it("keeps bash deny and allow as configured", () => {
    const f = createFixture();
    const options = { cwd: f.ws, home: f.home, unconfinedBash: "unconfined" as const };
    expect(createPolicy({ bash: "allow" }, options).check(exec("npm test")).allow).toBe(true);
    expect(reasonOf(createPolicy({ bash: "deny" }, options).check(exec("ls")))).toMatch(/disabled/);
  });
});

describe("bash without a sandbox: globs that may expand to options", () => {
  it("refuses a glob with no literal start when a file named like an option is there, and lets it run otherwise", () => {
    const f = createFixture();
    const policy = unconfined(f);
    f.file("notes.md", "notes");
    expect(policy.check(exec("printf ?v PATH bin")).allow).toBe(true);
    expect(policy.check(exec("cat *.md")).allow).toBe(true);
    expect(policy.check(exec("cat -- ?v")).allow).toBe(true);
    f.file("-v", "");
    expect(reasonOf(policy.check(exec("printf ?v PATH bin")))).toMatch(/may expand to an option/);
    expect(reasonOf(policy.check(exec("cat ?v")))).toMatch(/may expand to an option/);
    expect(policy.check(exec("cat -- ?v")).allow).toBe(true);
    expect(policy.check(exec("cat ./?v")).allow).toBe(true);
  });
});

describe("the write tool's effects: folders a write would create", () => {
  it("refuses a write that creates a .git folder (a new repository), and allows ordinary new folders", () => {
    const f = createFixture();
    const policy = unconfined(f);
    expect(reasonOf(policy.check({ kind: "write", path: "sub/.git/HEAD" }))).toMatch(/create the folder/);
    expect(reasonOf(policy.check({ kind: "write", path: "sub/deeper/.git/objects/x" }))).toMatch(/create the folder/);
    expect(policy.check({ kind: "write", path: "sub/deeper/notes.md" }).allow).toBe(true);
    expect(policy.check({ kind: "write", path: "src/new.ts" }).allow).toBe(true);
  });
});

describe("bash without a sandbox: links", () => {
  it("resolves a link's target through the link's real folder, and refuses a tree read that could follow a link", () => {
    const f = createFixture();
    f.dir("a/b");
    f.dir("m");
    symlinkSync("../../m", path.join(f.ws, "a/b/lm"));
    const policy = unconfined(f);
    // a/b/lm/.. is the project itself (lm leads to m): a link there would expose it below m.
    expect(reasonOf(policy.check(exec("ln -s .. a/b/lm/r")))).toMatch(/workspace root|contains|climbs with/);
    symlinkSync("..", path.join(f.ws, "m/r"));
    expect(reasonOf(policy.check(exec("grep -R SECRET m")))).toMatch(/symbolic link/);
    expect(policy.check(exec("grep -r SECRET src")).allow).toBe(true);
  });
});

describe("bash without a sandbox: CDPATH in the environment", () => {
  it("takes `cd name` as going anywhere when the shell has a CDPATH, and `cd ./name` as going there", () => {
    const f = createFixture();
    const options = { cwd: f.ws, home: f.home, unconfinedBash: "unconfined" as const };
    const saved = process.env.CDPATH;
    process.env.CDPATH = "/tmp";
    try {
      const policy = createPolicy({}, options);
      expect(reasonOf(policy.check(exec("cd src && cat app.ts")))).toMatch(/relative/);
      expect(policy.check(exec("cd ./src && cat app.ts")).allow).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.CDPATH;
      else process.env.CDPATH = saved;
    }
    expect(createPolicy({}, options).check(exec("cd src && cat app.ts")).allow).toBe(true);
  });
});

describe("bash without a sandbox: moving links", () => {
  it("refuses moving a relative link or a folder holding one, and lets plain files and absolute links move", () => {
    const f = createFixture();
    f.dir("z");
    symlinkSync("hooks", path.join(f.ws, "z/l"));
    symlinkSync(path.join(f.ws, "src"), path.join(f.ws, "abs"));
    f.dir("tree/inner");
    symlinkSync("..", path.join(f.ws, "tree/inner/up"));
    const policy = unconfined(f);
    expect(reasonOf(policy.check(exec("mv z/l docs/l")))).toMatch(/relative symbolic link/);
    expect(reasonOf(policy.check(exec("mv -T z/l docs/l")))).toMatch(/relative symbolic link/);
    expect(reasonOf(policy.check(exec("mv z/l .git/l")))).toMatch(/\.git folder/);
    expect(reasonOf(policy.check(exec("cp -r tree elsewhere")))).toMatch(/symbolic link/);
    expect(reasonOf(policy.check(exec("mv tree elsewhere")))).toMatch(/folder holding the symbolic link/);
    expect(policy.check(exec("mv src/app.ts src/main.ts")).allow).toBe(true);
    expect(policy.check(exec("mv abs abs2")).allow).toBe(true);
    expect(policy.check(exec("echo hi > /dev/stderr && cat /dev/stdin < src/app.ts")).allow).toBe(true);
  });
});

describe("bash without a sandbox: round 12 — where bash reads a line otherwise than the analysis", () => {
  it.each([
    // `${…}` ends by bash's quoting rules: a quoted `}` inside would end it early for a naive scan.
    [`echo ${"$"}{x:-'}'}; cat .env #'`, /\$\{…\} expansion holds quotes/],
    [`echo ${"$"}{x:-"}"}; cat .env #"`, /\$\{…\} expansion holds quotes/],
    // Inside "…", bash turns \" into " in a backquoted body, which pairs the single quotes anew.
    ['echo "`echo \\"\'\\" ; cat .env ; echo \\"\'\\"`"', /\.env/],
    // ${x@P} expands the value as a prompt, running its $(…).
    [`x='$(cat .env)'; echo ${"$"}{x@P}`, /\$\{x@P\}/],
    [`cat <<EOF\n${"$"}{x@P}\nEOF`, /here-document/],
    // A declaration builtin parses a value starting with ( as an array, expanding it again.
    ["declare -a arr='($(cat .env))'", /declare -a/],
    ["a=(1); declare a='($(cat .env))'", /declare|runs code|assigns an array/],
    ["f() { local -A m='($(cat .env))'; }", /local -A|hides commands/],
    // Variables bash keeps as integers evaluate what is assigned to them.
    ["OPTIND='a[$(cat .env >&2)]'", /sets OPTIND/],
    ["y='a[$(cat .env)]'; RANDOM=y", /sets RANDOM/],
    ["for HISTCMD in 'a[$(cat .env)]'; do :; done", /sets HISTCMD/],
    // Braces nested in a brace expansion.
    ["cat {.env,x{y}}", /brace expansion/],
    ["tee {.git/hooks/pre-commit,x{y}} < README.md", /brace expansion/],
    // Character classes the glob library reads otherwise than bash.
    ["cat .e[a[:print:]]v", /\[: :\]/],
    ["printf x >> docs/confi[a[:print:]]", /\[: :\]/],
    // A glob that expands to several names hands some of them another role.
    ["touch .e; grep .e* docs/env.md", /several names, which grep/],
    ["cp .git/[Cc][Oo][Mn]*", /several names, which cp/],
    ["sort -o docs/x* README.md", /several names, which sort/],
    ["uniq docs/e*", /several names, which uniq/],
  ])("refuses %j", (command, reason) => {
    const f = createFixture();
    f.file("README.md", "readme\n");
    expect(reasonOf(unconfined(f).check(exec(command)))).toMatch(reason);
  });

  it("lets globs run where every name they expand to plays the same role", () => {
    const f = createFixture();
    f.file("docs/a.txt", "a\n");
    f.dir("docs/old");
    const policy = unconfined(f);
    expectAllowed(policy, [
      "cat docs/*.txt",
      "grep -n env docs/*",
      "cp docs/*.txt docs/old/",
      "sed -n 1p docs/*.md",
      "head -n 3 -- docs/*",
      "find docs/* -name x",
      `echo ${"$"}{HOME} ${"$"}{PWD:-x}`,
      'echo "`echo hi`"',
    ]);
  });
});

describe("bash without a sandbox: round 13", () => {
  it.each([
    // Every redirection's word is expanded: here-strings and descriptor duplications too.
    [`x='a[$(cat .env >&2)]'; y=abc; cat <<< ${"$"}{y:x}`, /evaluates arithmetic/],
    [`x='a[$(cat .env >&2)]'; y=abc; cat <&${"$"}{y:x}`, /evaluates arithmetic/],
    // $"…" is translated through a catalogue the line can write, then expanded.
    ['echo $"hello"', /re-expands a value/],
    ["TEXTDOMAINDIR=l echo hi", /sets TEXTDOMAINDIR/],
    // A process substitution joined to other text is one path to bash.
    ["cat x<(true)/../../../../.en?", /process substitution is joined/],
    ["cp -t x<(true)/../../../../.git/hooks pre-commit", /process substitution is joined/],
    // git abbreviates long options, and takes file choices from stdin in its interactive modes.
    ["git blame --conten=.env README.md", /git blame --conten/],
    ["git branch --tr x master", /git branch --tr/],
    ["printf '4\\n*\\n\\nq\\n' | git add -i", /git add -i/],
    ["git add -vp docs", /git add -vp/],
    ["git commit --inter -m m", /git commit --inter/],
    // Nested shells read the script by bash's rules only with options that change nothing.
    ["bash -k -c 'git status GIT_CONFIG_COUNT=1'", /bash -k/],
    ["bash -c -k 'ls'", /bash -k/],
    ["bash --posix -c 'grep -r API a=~/..'", /bash --posix/],
    ["sh -c 'grep -r API a=~/..'", /other rules than bash/],
  ])("refuses %j", (command, reason) => {
    const f = createFixture();
    f.file("README.md", "readme\n");
    expect(reasonOf(unconfined(f).check(exec(command)))).toMatch(reason);
  });

  it("lets plain nested bash, git and redirections run", () => {
    const f = createFixture();
    f.file("docs/a.txt", "a\n");
    const policy = unconfined(f);
    expectAllowed(policy, [
      "bash -c 'ls docs'",
      "bash -lc 'ls docs'",
      "bash -e -u -o pipefail -c 'ls docs | wc -l'",
      'git commit -am "p fix"',
      "git branch -vv",
      "git blame -L 1,2 docs/a.txt",
      'cat <<< "hello"',
      "LC_ALL=C sort docs/a.txt",
    ]);
  });
});

describe("bash without a sandbox: round 14", () => {
  it.each([
    // A backslash escapes a pathspec character: `\\.env` is `.env` to git.
    ["git add -f '\\.env'", /pathspec/],
    // git takes any unique prefix of a long option: `--a` is --all, not --author taking `.env` as its value.
    ["git add --a .env", /abbreviates a long option/],
    ["git add --a", /abbreviates a long option/],
    // `-n` is a flag of blame: the next word is the file.
    ["git blame -n .env", /\.env/],
    ["git ls-files -X.env", /-X\.env/],
    // Only git writes inside .git: a hand-made index names files git diff then reads.
    ["printf 'DIRC' > .git/index && git diff", /only git itself may write inside a \.git folder/],
    ["rm .git/index.lock", /inside a \.git folder/],
    // A link copied as a link points somewhere new (`/usr/bin/X11 -> .`).
    ["cp -P /usr/bin/X11 .claude/l", /relative symbolic link/],
    ["cp --no-dereference /usr/bin/X11 docs/l", /relative symbolic link/],
  ])("refuses %j", (command, reason) => {
    const f = createFixture();
    expect(reasonOf(unconfined(f).check(exec(command)))).toMatch(reason);
  });

  it("lets full spellings, flags and plain copies run", () => {
    const f = createFixture();
    f.file("docs/a.txt", "a\n");
    const policy = unconfined(f);
    expectAllowed(policy, [
      "git log -n 3 --oneline",
      "git add --all docs",
      "git add -n docs/a.txt",
      "git blame -n docs/a.txt",
      "cp docs/a.txt docs/b.txt",
    ]);
  });
});

describe("bash without a sandbox: round 15", () => {
  it.each([
    // `..` after a folder this line may make a link: the kernel follows the link, the text cannot.
    ["mkdir -p a/b && ln -s .. a/b/l && cat a/b/l/../.e?v", /climbs with \.\. out of/],
    ["mkdir -p a/b && ln -s .. a/b/l && grep -r API a/b/l/..", /climbs with \.\. out of/],
    ["mkdir -p a/b && ln -s .. a/b/l && printf x > a/b/l/../../.gitconfig", /climbs with \.\. out of/],
    // Bash expands `~` after `NAME+=`, `NAME[i]=` and after a `:` of such a word.
    ["mkdir -p x=:~ && cat x=:~/../.aws/credentials", /tilde expansion/],
    ["mkdir -p a+=~ && cat a+=~/../x", /tilde expansion/],
  ])("refuses %j", (command, reason) => {
    const f = createFixture();
    expect(reasonOf(unconfined(f).check(exec(command)))).toMatch(reason);
  });

  it("lets .. through folders that exist, and ~ where bash leaves it alone", () => {
    const f = createFixture();
    f.file("docs/a.txt", "a\n");
    expectAllowed(unconfined(f), ["cat docs/../docs/a.txt", "X=~/foo; echo $X", "echo a:b", "ls ~/"]);
  });
});

describe("bash without a sandbox: round 16", () => {
  it("refuses links and walks that lead elsewhere than the analysis reads", () => {
    const f = createFixture();
    f.dir("docs/a/b/c");
    symlinkSync("../../..", path.join(f.ws, "docs/a/b/c/l"));
    symlinkSync("../../x", path.join(f.ws, "docs/a/b/rel"));
    const policy = unconfined(f);
    // ln -r computes the link's text from the cwd.
    expect(reasonOf(policy.check(exec("ln -sr ../out docs/x")))).toMatch(/ln -r/);
    // A hard link of a relative symbolic link is that link again, in another folder.
    expect(reasonOf(policy.check(exec("ln docs/a/b/rel l2")))).toMatch(/relative symbolic link/);
    // A link put into a destination that is a link to a folder lands inside that folder.
    expect(reasonOf(policy.check(exec("ln -s ../../x docs/a/b/c/l")))).toMatch(/outside the workspace/);
    // Recursive walks that follow links.
    expect(reasonOf(policy.check(exec("chown -RL daemon docs")))).toMatch(/chown -L/);
    expect(reasonOf(policy.check(exec("find -L docs -name f -exec truncate -s 0 {} +")))).toMatch(
      /follows symbolic links/,
    );
    expect(reasonOf(policy.check(exec("find docs -follow -name f -delete")))).toMatch(/follows symbolic links/);
    // A hard link is another name of its source: the source is read.
    expect(reasonOf(policy.check(exec("ln .env x && cat x")))).toMatch(/\.env/);
    expectAllowed(policy, ["ln docs/env.md docs/hard.md", "chown -R root docs", 'find docs -name "*.md"']);
  });
});

describe("bash without a sandbox: round 17 — descriptor paths reopen what the line opened", () => {
  it.each([
    // A descriptor the line opened read-only, reopened for writing through its path.
    ["printf '[core]\\n\\tfsmonitor = x\\n' 3<.git/config >/dev/fd/3", /descriptor 3/],
    ["printf x 1<.gatehouse/settings.json >/dev/stdout", /opens descriptor 1 on a file/],
    ["tee /dev/fd/3 3<.git/config", /descriptor 3/],
    ["cp docs/env.md /dev/fd/3 3<.git/config", /descriptor 3/],
    ["dd of=/dev/fd/3 3<.git/config", /descriptor 3/],
    ["printf x 3<.git/config >/proc/self/fd/3", /descriptor 3/],
    ["printf x 2<.envrc 2>/dev/stderr", /opens descriptor 2 on a file/],
    ["printf x >/dev/stderr 2<.envrc", /opens descriptor 2 on a file for read only/],
    ["{ printf x >/dev/stdout; } 1<.envrc", /descriptor 1/],
    ["exec 1<.envrc; printf x > /dev/stdout", /descriptor 1/],
    ["printf x 3<.envrc 1>&3 >/dev/stdout", /descriptor 1/],
    ["cd /dev && printf x > stdout 1<../.envrc", /descriptor 1/],
    // Written-only descriptors reopened for reading.
    ["cat /dev/stdin 0>>docs/env.md", /opens descriptor 0 on a file for write only/],
    // A process substitution's descriptor number taken by a redirection.
    ["echo x | tee >(cat) 63<.git/config", /descriptor 63/],
    // Paths through the shell's process that this process resolves otherwise.
    ["cat /proc/self/cwd/../docs/env.md", /\/proc path/],
    ["printf x > /proc/self/task/1/fd/1", /\/proc path/],
    ["cat /proc/thread-self/root/etc/hostname", /\/proc path/],
    // A link to a descriptor path names whatever a later line opens there.
    ["ln -s /dev/stdout docs/out", /later command opens/],
    ["rm /dev/stdout", /later command opens/],
    ["grep -r x /dev/stdin", /later command opens/],
    ["echo x > /dev/tty", /outside/],
  ])("refuses %j", (command, reason) => {
    const f = createFixture();
    expect(reasonOf(unconfined(f).check(exec(command)))).toMatch(reason);
  });

  it("refuses a descriptor path reached through a link on disk", () => {
    const f = createFixture();
    symlinkSync("/dev/stdout", path.join(f.ws, "docs/out"));
    expect(reasonOf(unconfined(f).check(exec("printf x > docs/out")))).toMatch(/symbolic link on the way/);
  });

  it("lets the agent's own streams and process substitutions be used", () => {
    const f = createFixture();
    f.file("docs/a.txt", "a\n");
    expectAllowed(unconfined(f), [
      "echo hi > /dev/stderr",
      "echo hi | tee /dev/stderr",
      "echo hi | cat /dev/stdin",
      "cat /dev/stdin < docs/a.txt",
      "echo x > docs/b.txt 2>&1 && echo y > /dev/stderr",
      "echo x > /dev/null 2>&1",
      "diff <(sort docs/a.txt) <(sort docs/a.txt)",
      "echo x | tee >(cat) /dev/stderr",
    ]);
  });
});

describe("bash without a sandbox: round 17 — sed scripts read otherwise than the plain grammar", () => {
  it.each([
    // sed does not end a regular expression at a `/` inside a bracket expression.
    ["sed 's/[/]/;/e#/p' docs/env.md"],
    ["sed -n '/[/]/p;s/a/b/w out' docs/env.md"],
    ["sed 's/[^]/]/x/e' docs/env.md"],
    ["sed 's/[\\/]/x/e' docs/env.md"],
    ["sed 's/[a/x/e' docs/env.md"],
    // Other delimiters, address flags, y, comments, and the commands and flags that run or write.
    ["sed '\\,x,p' docs/env.md"],
    ["sed 's|x|y|e' docs/env.md"],
    ["sed 'y/abc/xyz/' docs/env.md"],
    ["sed 's/x/y/M' docs/env.md"],
    ["sed 's/x/y/gw /tmp/o' docs/env.md"],
    ["sed 's/a/b/ # c' docs/env.md"],
    ["sed -e 's/a/b/' -e '#n' docs/env.md"],
    ["sed '1r .env' docs/env.md"],
    ["sed '1R .env' docs/env.md"],
    ["sed '1W out' docs/env.md"],
    ["sed 'e id' docs/env.md"],
  ])("refuses %j", (command) => {
    const f = createFixture();
    expect(reasonOf(unconfined(f).check(exec(command)))).toMatch(/sed script/);
  });

  it("lets plain scripts run, with [ and # where sed reads them as themselves", () => {
    const f = createFixture();
    expectAllowed(unconfined(f), [
      "sed 's/a/[/' docs/env.md",
      "sed 's/#.*//' docs/env.md",
      "sed -n '/^#/!p' docs/env.md",
      "sed 's/\\[x\\]/y/g' docs/env.md",
      "sed -n '1,3p;$p' docs/env.md",
      "sed 's/[0-9]//g' docs/env.md",
      "sed -n '/^[a-z]/p' docs/env.md",
      "sed 's/[^a-zA-Z_]/-/g' docs/env.md",
      "sed 's/[]x]/y/' docs/env.md",
      "sed 's/[:a-z-]//g' docs/env.md",
    ]);
  });
});

describe("bash without a sandbox: round 17 — obsolete options that move operands' roles", () => {
  it.each([
    // uniq reads `+N` as --skip-chars: the next operand becomes the input, the one after the output.
    ["uniq +0 +0 .env", /obsolete option/],
    ["uniq +0 docs/env.md .git/hooks/pre-commit", /obsolete option/],
    ["uniq -- +0 docs/out.txt", /obsolete option/],
    ["uniq docs/env.md docs/a.txt docs/b.txt", /at most an input and an output/],
    // Digit options (obsolete -N forms) are not in the allowlists that have roles to move.
    ["uniq -1 docs/env.md docs/out.txt", /uniq -1/],
    ["sort +0 -1 docs/env.md", /sort -1/],
  ])("refuses %j", (command, reason) => {
    const f = createFixture();
    expect(reasonOf(unconfined(f).check(exec(command)))).toMatch(reason);
  });

  it("lets uniq, tail and sort with plain options run", () => {
    const f = createFixture();
    expectAllowed(unconfined(f), ["uniq -c docs/env.md", "uniq -s 1 docs/env.md docs/out.txt", "tail +2 docs/env.md"]);
  });
});

describe("bash without a sandbox: round 17 — links the line makes inside a tree it walks, moves or copies", () => {
  it.each([
    // A read of a whole tree that follows a link made on the same line.
    ["ln -s ../playground docs/c && grep -R x docs", /makes a symbolic link/],
    ["ln -s ../playground docs/c && diff -rN docs src", /makes a symbolic link/],
    ["ln -s ../playground docs/c && rg -L x docs", /makes a symbolic link/],
    ["ln -s ../playground docs/c && cp -rL docs out", /makes a symbolic link/],
    ["ln -s ../playground docs/c && grep -R x", /makes a symbolic link/],
    // Wherever the link stands on the line: a loop runs the later command first.
    ["for i in 1 2; do grep -R x docs; ln -sf ../playground docs/c; done", /makes a symbolic link/],
    // A link moved or copied into the tree, or a folder the line put a link in.
    ["ln -s ../playground t/w/l && mv t/w/l docs/ && grep -R x docs", /does not exist before/],
    // Moving or copying a folder holding a relative link made on the same line: it points elsewhere.
    ["ln -s ../../outside t/w/l && mv t/w w2 && cat w2/l/notes.txt", /moves or copies "t\/w"/],
    ["ln -s ../../outside t/w/l && mv t w9", /moves or copies "t"/],
    ["ln -s ../../outside t/w/l && mv t/w .", /moves or copies "t\/w"/],
    ["ln -s ../../outside t/w/l && mv -t . t/w", /moves or copies "t\/w"/],
    ["ln -s ../../outside t/w/l && cp -a t/w w2", /makes a symbolic link|moves or copies/],
  ])("refuses %j", (command, reason) => {
    const f = createFixture();
    f.dir("t/w");
    expect(reasonOf(unconfined(f).check(exec(command)))).toMatch(reason);
  });

  it("refuses a search through a folder the line moves or copies a link on disk into", () => {
    const f = createFixture();
    symlinkSync(path.join(f.ws, "playground"), path.join(f.ws, "abs"));
    const policy = unconfined(f);
    expect(reasonOf(policy.check(exec("mv abs docs/ && grep -R x docs")))).toMatch(/makes a symbolic link/);
    expect(reasonOf(policy.check(exec("cp -P abs docs/l2 && grep -R x docs")))).toMatch(/makes a symbolic link/);
    expect(reasonOf(policy.check(exec("cp -a abs docs/l2; mv docs/l2 src/ && rg -L x src")))).toMatch(
      /makes a symbolic link/,
    );
  });

  it("refuses moving a folder holding a relative link on disk into an existing folder", () => {
    const f = createFixture();
    f.dir("t/w");
    symlinkSync("../../outside", path.join(f.ws, "t/w/l"));
    expect(reasonOf(unconfined(f).check(exec("mv t/w .")))).toMatch(/symbolic link/);
  });

  it("lets moves and copies of plain files and folders run before a search", () => {
    const f = createFixture();
    f.file("docs/a.txt", "a\n");
    expectAllowed(unconfined(f), [
      "mv docs/a.txt src/ && grep -r x src",
      "cp -r docs docs2 && grep -r x docs2",
      "mkdir -p docs/d && echo hi > docs/d/f && grep -r hi docs",
      "ln -s docs/a.txt b.txt && grep -r x src",
    ]);
  });
});

describe("bash without a sandbox: round 17 — a destination the line makes a folder", () => {
  it.each([
    // Not a folder when checked, a folder when the copy runs: the source lands inside it.
    ["mkdir .claude && echo '{}' > settings.json && cp settings.json .claude", /\.claude\/settings\.json/],
    ["mkdir .vscode && cp docs/env.md tasks.json && cp tasks.json .vscode", /\.vscode\/tasks\.json/],
    ["mkdir .codex && cp docs/env.md config.toml && mv config.toml .codex", /\.codex\/config\.toml/],
    ["mkdir -p .claude/x && cp docs/env.md settings.json && mv settings.json .claude", /\.claude\/settings\.json/],
    ["cp -r docs .claude && cp docs/env.md settings.json && cp settings.json .claude", /\.claude\/settings\.json/],
    // A link put into a folder the line makes.
    ["mkdir d && ln -s ../.git/hooks d && printf x > d/hooks/pre-commit", /climbs with \.\. out of/],
  ])("refuses %j", (command, reason) => {
    const f = createFixture();
    expect(reasonOf(unconfined(f).check(exec(command)))).toMatch(reason);
  });

  it("lets copies and moves to new names run", () => {
    const f = createFixture();
    expectAllowed(unconfined(f), [
      "cp docs/env.md docs/b.txt",
      "mv docs/env.md docs/c.txt",
      "mkdir out && cp docs/env.md out && cat out/env.md",
      "ln -s docs/env.md newlink",
    ]);
  });
});

describe("bash without a sandbox: round 18 — find puts what it finds into a folder", () => {
  it.each([
    // `{}` lands in the folder under the name of each file find finds: any name a rule protects there.
    ["mkdir -p t/c && printf x > t/c/config && find t/c -name config -exec cp {} .git/ \\;"],
    ["mkdir -p t/c && find t/c -name settings.json -exec cp {} .claude/ \\;"],
    ["find docs -type f -exec mv -t .vscode {} +"],
    ["find docs -name x -exec ln -s {} .claude/ \\;"],
    ["find docs -type f -exec cp -t .git/hooks {} +"],
    ["find docs -type f -exec cp {} .codex \\;"],
  ])("refuses %j", (command) => {
    const f = createFixture();
    expect(unconfined(f).check(exec(command)).allow).toBe(false);
  });

  it("lets find copy what it finds into an ordinary folder, and act on {} itself", () => {
    const f = createFixture();
    expectAllowed(unconfined(f), [
      "mkdir -p out && find docs -name '*.md' -exec cp {} out/ \\;",
      "find docs -type f -exec cat {} \\;",
      "find docs -name '*.md' -exec grep -l env {} +",
    ]);
  });
});

describe("bash without a sandbox: git runs the repository's hooks", () => {
  it("refuses a git command whose hooks the repository installed (a hook runs what the project holds)", () => {
    const f = createFixture();
    // husky's default pre-commit runs `npm test`: package.json's script, which the agent may edit.
    f.file(".git/hooks/pre-commit", "#!/bin/sh\nnpm test\n");
    f.file(".git/hooks/post-index-change", "#!/bin/sh\n");
    const policy = unconfined(f);
    expect(reasonOf(policy.check(exec("git commit -m x")))).toMatch(
      /git commit runs the repository's hook .*pre-commit/,
    );
    expect(reasonOf(policy.check(exec("git commit --no-verify -m x")))).toMatch(/hook/);
    expect(reasonOf(policy.check(exec("git add src/app.ts && git status")))).toMatch(/post-index-change/);
    expectAllowed(policy, ["git log --oneline", "git show HEAD", "git branch x"]);
  });

  it("finds the hooks of a core.hooksPath folder (husky's .husky/_)", () => {
    const f = createFixture();
    f.file(".git/config", "[core]\n\thooksPath = .husky/_\n");
    f.file(".husky/_/pre-commit", '#!/bin/sh\n. "$(dirname "$0")/h"\n');
    f.file(".husky/_/reference-transaction", "#!/bin/sh\n");
    const policy = unconfined(f);
    expect(reasonOf(policy.check(exec("git commit -m x")))).toMatch(/\.husky\/_\/pre-commit/);
    expect(reasonOf(policy.check(exec("git branch x")))).toMatch(/reference-transaction/);
    expectAllowed(policy, ["git status", "git diff", "git log"]);
  });

  it("lets git commit run where no hook is installed", () => {
    const f = createFixture();
    f.file(".git/hooks/pre-commit.sample", "#!/bin/sh\n");
    expectAllowed(unconfined(f), ["git add src/app.ts && git commit -m x", "git status"]);
  });
});

describe("bash without a sandbox: Claude Code's memory files", () => {
  // Claude Code reads what a memory file imports (`@.env`) into the conversation by itself: the
  // agent's Write and Edit are checked for imports, a shell write's text cannot be.
  it.each([
    "echo '@.env' >> CLAUDE.md",
    "printf 'See @../.env' > docs/CLAUDE.md",
    "tee CLAUDE.local.md < notes.txt",
    "cp notes.txt .claude/rules/keys.md",
    "mv notes.txt sub/claude.md",
    "sed -i s/x/@.env/ CLAUDE.md",
  ])("refuses %j", (command) => {
    const f = createFixture();
    f.file("CLAUDE.md", "x\n");
    f.file("notes.txt", "@.env\n");
    expect(ruleOf(unconfined(f).check(exec(command)))).toBe("bash write to agent memory");
  });

  it("lets a memory file be read, and other markdown be written", () => {
    const f = createFixture();
    f.file("CLAUDE.md", "x\n");
    expectAllowed(unconfined(f), ["cat CLAUDE.md", "grep -n x CLAUDE.md", "echo note >> docs/notes.md"]);
  });
});
