import path from "node:path";
import { describe, expect, it } from "vitest";
import { createFixture, exec, reasonOf, ruleOf } from "./helpers/fixture.ts";

const ENV = "default denyWrite .env";
const ENV_READ = "default denyRead .env";
const GIT = "default denyWrite .git";
const GIT_CONFIG = "default denyWrite .git/config";
const GIT_HOOKS = "default denyWrite .git/hooks/**";
/** The analyzer alone: sandbox mode only pre-checks what a deny rule provably refuses. */
const ANALYZE = { bash: "analyze" } as const;

describe("bash analysis: write targets onto protected paths", () => {
  it.each([
    ["echo x > .env", ENV],
    ["echo x>.env", ENV],
    ["echo x >> .env", ENV],
    ["echo x >| .env", ENV],
    ["ls &> .env", ENV],
    ["ls &>> .env", ENV],
    ["ls 2> .env", ENV],
    ["ls 3>.env", ENV],
    ["echo x >& .env", ENV],
    ["cat <> .env", ENV],
    ['echo x > ".env"', ENV],
    ["echo x > '.e''nv'", ENV],
    ["echo x > \\.env", ENV],
    ["echo x > ./src/../.env", ENV],
    ["cat > .env <<EOF\nA=1\nEOF", ENV],
    ["tee -a .git/config", GIT_CONFIG],
    ["cat x | tee .env", ENV],
    ["[ -e x ] && echo x > .env", ENV],
    ["echo x | tee -a playground/log.txt .env", ENV],
    ["cp a .env", ENV],
    ["cp -r a b .git/hooks/", GIT_HOOKS],
    ["cp -t .git/hooks a", GIT_HOOKS],
    ["mv .env backup.txt", ENV],
    ["mv notes.txt .env", ENV],
    ["rm .env", ENV],
    ["rm -rf .git", GIT],
    ["rm -rf -- .git", GIT],
    // sed and perl read the file before they write it: the read is refused first.
    ["sed -i s/a/b/ .env", ENV_READ],
    ["sed -i.bak -e s/a/b/ .git/config", GIT_CONFIG],
    ["sed --in-place=.orig 's/a/b/' .env", ENV_READ],
    ["sed -Ei 's/a/b/' .env", ENV_READ],
    ["perl -pi -e 's/a/b/' .env", ENV_READ],
    ["perl -i.bak -pe 's/a/b/' .git/config", GIT_CONFIG],
    ["truncate -s 0 .env", ENV],
    ["dd if=/dev/zero of=.env bs=1 count=1", ENV],
    ["ln -sf /tmp/evil .git/hooks/pre-commit", GIT_HOOKS],
    ["ln -s /tmp/evil .env", ENV],
    ["touch .env", ENV],
    ["chmod 600 .env", ENV],
    ["chown -R nobody .git", GIT],
    ["install -m 600 a .env", ENV],
    ["mkdir -p .git/hooks", GIT_HOOKS],
    ["sort -o .env input.txt", ENV],
    ["curl -sSLo .env https://example.com", ENV],
    ["wget -O .env https://example.com", ENV],
    ["sudo rm .env", ENV],
    ["\\rm .env", ENV],
    ["/bin/rm .env", ENV],
    ['"rm" .env', ENV],
    ["command rm -f .env", ENV],
    ["! rm .env", ENV],
    ["A=1 B=2 rm .env", ENV],
    ["env A=1 nice -n 5 tee .env", ENV],
    ["timeout 5 rm .env", ENV],
    ["bash -c 'echo x > .env'", ENV],
    ['sh -ec "rm .env"', ENV],
    ["eval 'rm .env'", ENV],
    ["echo $(rm .env)", ENV],
    ["echo `touch .git/hooks/x`", GIT_HOOKS],
    ["diff a <(cat b) >(tee .env)", ENV],
    ["if true; then rm .env; fi", ENV],
    // coproc and `function NAME {` start a command of their own.
    ["coproc tee .git/hooks/pre-commit", GIT_HOOKS],
    ["coproc { tee .git/hooks/pre-commit < x; }", GIT_HOOKS],
    ["coproc W { ! rm .env; }", ENV],
    ["function f { tee .git/hooks/pre-commit; }; f", GIT_HOOKS],
    ["function f() { A=1 rm .env; }", ENV],
    ["case $1 in a|b) rm .env;; *) true;; esac", ENV],
    ["echo $(case a in a) echo x > .env;; esac)", ENV],
    ["(cd src && rm ../.env)", ENV],
    ["cd .git && echo x > config", GIT_CONFIG],
    ["cd .git; touch hooks/post-commit", GIT_HOOKS],
    ["true && { echo x > .env; }", ENV],
    ["echo x > /dev/null; echo y > .env", ENV],
    ["rm .e*", ENV],
    ["rm -f .en?", ENV],
    ["find . -name '*.tmp' -delete", "workspace root"],
    ["rm -rf .", "workspace root"],
    ["echo x > /etc/passwd", "outside workspace"],
    ["echo x > ../proj-evil/x", "outside workspace"],
    ["echo x > ~/.bashrc", "default denyWrite .bashrc"],
    ["echo x > ~/notes.txt", "outside workspace"],
    ["echo x > $HOME/.bashrc", "default denyWrite .bashrc"],
  ])("%j is refused (%s)", (command, rule) => {
    const f = createFixture();
    f.file("notes.txt");
    expect(ruleOf(f.policy(ANALYZE).check(exec(command)))).toBe(rule);
  });

  it("a recursive write over a directory that holds a protected path is refused, naming it", () => {
    const f = createFixture();
    f.file("apps/web/.env");
    const policy = f.policy(ANALYZE);
    const decision = policy.check(exec("rm -rf apps"));
    expect(ruleOf(decision)).toBe(ENV);
    expect(reasonOf(decision)).toBe(
      'Bash write to "apps" (rm) refused: it contains "apps/web/.env", and .env files hold secrets and are protected (default denyWrite .env).',
    );
    expect(ruleOf(policy.check(exec("find apps -name '*.log' -exec rm {} +")))).toBe(ENV);
    expect(ruleOf(policy.check(exec("mv apps elsewhere")))).toBe(ENV);
    expect(ruleOf(policy.check(exec("chmod -R 777 apps")))).toBe(ENV);
    expect(ruleOf(policy.check(exec("rm -rf playground")))).toBe("allow");
  });

  it("copying into a directory checks where each source lands", () => {
    const f = createFixture();
    f.file(path.join(f.outside, ".env"));
    const policy = f.policy(ANALYZE);
    // The copy reads the source first, which is a protected .env too.
    expect(ruleOf(policy.check(exec(`cp ${f.outside}/.env .`)))).toBe(ENV_READ);
    expect(ruleOf(policy.check(exec(`cp ${f.outside}/.env.example playground/`)))).toBe("default denyWrite .env.*");
    expect(ruleOf(policy.check(exec(`cp ${f.outside}/notes.txt .`)))).toBe("allow");
    expect(ruleOf(policy.check(exec("cp src/app.ts playground")))).toBe("allow");
  });

  it("a link is checked where writes through it will land, so link-then-write in one command fails", () => {
    const f = createFixture();
    const policy = f.policy(ANALYZE);
    expect(ruleOf(policy.check(exec("ln -s .env notes && echo x > notes")))).toBe(ENV);
    expect(ruleOf(policy.check(exec("ln -s ../.git/config docs/cfg")))).toBe(GIT_CONFIG);
    expect(ruleOf(policy.check(exec(`ln -s ${f.outside} out && echo x > out/new.txt`)))).toBe("outside workspace");
    // A hard link is another name of its source: refused as a read of it, before the write.
    expect(ruleOf(policy.check(exec("ln .env hard && echo x > hard")))).toBe("default denyRead .env");
    expect(ruleOf(policy.check(exec("ln -s ../src/app.ts playground/app.ts")))).toBe("allow");
  });

  it("the reason names the offending path and the rule, and never the rest of the command", () => {
    const policy = createFixture().policy(ANALYZE);
    const reason = reasonOf(policy.check(exec("echo SECRET_TOKEN=hunter2 > .env")));
    expect(reason).toBe(
      'Bash write to ".env" (redirection) refused: .env files hold secrets and are protected (default denyWrite .env).',
    );
    expect(reason).not.toContain("hunter2");
  });
});

describe("bash analysis: what it cannot know is refused", () => {
  it.each([
    ["F=.env; echo x > $F", "bash unresolved target"],
    ['echo x > "$OUT"', "bash unresolved target"],
    ["echo x > $(echo .env)", "bash unresolved target"],
    ["cp a .{env,x}", "bash unresolved target"],
    ["echo x > $'\\x2eenv'", "bash unresolved target"],
    ["echo .env | xargs rm", "bash unresolved target"],
    ["for f in .env; do rm $f; done", "bash unresolved target"],
    ["cd $DIR && echo x > a.txt", "bash unresolved target"],
    ["echo x > */config", "bash unresolved target"],
    ["$CMD .env", "bash unresolved command"],
    ['sh -c "$SCRIPT"', "bash unresolved command"],
    ["echo 'unterminated", "bash unparseable"],
    ['echo "unterminated', "bash unparseable"],
    ["echo $(unterminated", "bash unparseable"],
    ["echo x >", "bash unparseable"],
    ["echo )", "bash unparseable"],
  ])("%j is refused (%s)", (command, rule) => {
    expect(ruleOf(createFixture().policy(ANALYZE).check(exec(command)))).toBe(rule);
  });

  it("an unparseable command gets a reason the model can act on", () => {
    expect(reasonOf(createFixture().policy(ANALYZE).check(exec("echo 'x > .env")))).toBe(
      "Bash command refused: it could not be parsed (a single quote is not closed), so what it writes cannot be checked; fix the command (bash unparseable).",
    );
  });
});

describe("bash analysis: ordinary commands stay allowed", () => {
  it.each([
    "ls -la",
    "echo x > /dev/null",
    "ls 2>/dev/null",
    "ls >/dev/null 2>&1",
    "echo ok 1>&2",
    "echo x > playground/out.txt",
    "cat .env.example",
    "sed s/a/b/ .env.sample",
    "grep -r .env src",
    'echo "> .env"',
    "echo x # > .env",
    "cat <<EOF\nrm .env\nEOF",
    "git commit -m 'touch .env'",
    "npm install",
    "cat src/app.ts | grep x | sort | uniq",
    "cp src/app.ts playground/",
    "mv playground/x.txt playground/y.txt",
    "rm -rf playground",
    "cd playground && echo x > note.txt",
    "tee -a playground/log.txt",
    "find src -name '*.ts' -print",
    "printf '%s' \"$HOME\"",
    "case $1 in start) npm start;; *) echo usage;; esac",
    "echo x > .envrc.md",
    "echo x > .git/description",
    "mkdir -p node_modules/pkg && echo x > node_modules/pkg/index.js",
    "sed -i s/a/b/ docs/env.md",
    "curl -o playground/page.html https://example.com",
    "wget -O- https://example.com",
    "if [ -f .env ]; then echo present; fi",
    "until [ -e playground/go ]; do sleep 0.1; done",
  ])("%j is allowed", (command) => {
    expect(ruleOf(createFixture().policy(ANALYZE).check(exec(command)))).toBe("allow");
  });
});

describe("bash modes and denyRead", () => {
  it('bash: "deny" refuses every command; "allow" skips the analysis', () => {
    const f = createFixture();
    const denied = f.policy({ bash: "deny" }).check(exec("ls"));
    expect(reasonOf(denied)).toBe(
      'Bash command refused: shell commands are disabled by the path policy (bash: "deny"); use the file tools instead (bash deny).',
    );
    expect(ruleOf(f.policy({ bash: "allow" }).check(exec("echo x > .env")))).toBe("allow");
  });

  it("reads of denyRead paths by common readers are refused, best effort", () => {
    const policy = createFixture().policy({ denyRead: ["secrets/**"] });
    for (const command of [
      "cat secrets/key",
      "head -n 5 secrets/key",
      "tail -f secrets/key",
      "grep -i token secrets/key",
      "grep -e token -- secrets/key",
      "less < secrets/key",
      "cp secrets/key playground/",
      "base64 secrets/key",
    ]) {
      expect(ruleOf(policy.check(exec(command))), command).toBe("config denyRead secrets/**");
    }
    expect(ruleOf(policy.check(exec("grep secrets/key src/app.ts")))).toBe("allow");
  });

  it("the decision of an allowed command lists the spellings of every target", () => {
    const f = createFixture();
    const decision = f.policy(ANALYZE).check(exec("echo x > playground/out.txt"));
    expect(decision.spellings).toContainEqual({ form: "absolute", path: path.join(f.ws, "playground/out.txt") });
  });
});
