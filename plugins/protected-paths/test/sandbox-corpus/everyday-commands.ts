import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

/** An everyday command that must work in the sandbox, with what its output must show. */
export interface Everyday {
  id: string;
  what: string;
  command: string;
  /** A fragment the result text must contain. */
  shows: string;
}

/** Adds what the everyday commands work on: a C file, a Makefile, npm scripts, a build script, a local package. */
export function prepareEveryday(ws: string): void {
  const put = (rel: string, content: string) => {
    mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    writeFileSync(path.join(ws, rel), content);
  };
  put("hello.c", '#include <stdio.h>\nint main(void) { puts("hello from C"); return 0; }\n');
  put("Makefile", "build/out.txt: src/app.txt\n\tmkdir -p build\n\tsort -u src/app.txt > build/out.txt\n");
  put(
    "package.json",
    `${JSON.stringify({ name: "app", version: "1.0.0", private: true, scripts: { test: "node test.js" } }, null, 2)}\n`,
  );
  put("test.js", 'const assert = require("node:assert");\nassert.equal(1 + 1, 2);\nconsole.log("tests passed");\n');
  put(
    "build.js",
    'require("node:fs").mkdirSync("dist", { recursive: true });\nrequire("node:fs").writeFileSync("dist/bundle.js", "bundled");\nconsole.log("built");\n',
  );
  put("local-pkg/package.json", `${JSON.stringify({ name: "local-pkg", version: "1.0.0", main: "index.js" })}\n`);
  put("local-pkg/index.js", "module.exports = 'local package loaded';\n");
  // Packages ship dotfiles a deny rule matches; installing and removing them must still work.
  put("local-pkg/.env.example", "EXAMPLE=1\n");
  put("local-pkg/.env", "PACKAGE_DEFAULT=1\n");
}

/** Everyday work: compilers and build tools, git, npm scripts and installs, pipes, here-documents. */
export const EVERYDAY: readonly Everyday[] = [
  { id: "e1", what: "git status", command: "git status --short", shows: "?? hello.c" },
  { id: "e2", what: "git diff", command: "echo more >> src/app.txt && git diff --stat", shows: "src/app.txt" },
  {
    id: "e3",
    what: "git commit",
    command: "git add -A && git commit -qm 'everyday work' && git log --oneline | head -1",
    shows: "everyday work",
  },
  { id: "e4", what: "a C compiler", command: "cc hello.c -o hello && ./hello", shows: "hello from C" },
  { id: "e5", what: "make", command: "make && cat build/out.txt", shows: "world" },
  { id: "e6", what: "npm test", command: "npm test 2>&1", shows: "tests passed" },
  { id: "e7", what: "a pipe", command: "cat src/app.txt | sort | uniq -c | sort -rn | head -1", shows: "2 hello" },
  {
    id: "e8",
    what: "a here-document",
    command: "cat > notes.md <<'EOF'\n# Notes\nwritten here\nEOF\ncat notes.md",
    shows: "written here",
  },
  { id: "e9", what: "a node build script", command: "node build.js && cat dist/bundle.js", shows: "bundled" },
  {
    id: "e10",
    what: "npm install into node_modules",
    command:
      "npm pack ./local-pkg --silent >/dev/null && npm install ./local-pkg-1.0.0.tgz --no-audit --no-fund --silent && node -p \"require('local-pkg')\"",
    shows: "local package loaded",
  },
  {
    id: "e11",
    what: "python writing a file",
    command: "python3 -c \"open('py-out.txt','w').write('py ok')\" && cat py-out.txt",
    shows: "py ok",
  },
  { id: "e12", what: "a temp file", command: "t=$(mktemp) && echo tmp-ok > $t && cat $t", shows: "tmp-ok" },
  { id: "e13", what: "moving directories", command: "mkdir -p a/b && mv a/b c && rm -rf a && ls -d c", shows: "c" },
  {
    id: "e14",
    what: "tar",
    command: "tar czf out.tgz src && mkdir -p x && tar xzf out.tgz -C x && ls x/src",
    shows: "app.txt",
  },
  { id: "e15", what: "sed -i", command: "sed -i s/world/planet/ src/app.txt && cat src/app.txt", shows: "planet" },
  { id: "e16", what: "reading .env.example", command: "cat .env.example", shows: "API_KEY=changeme" },
  { id: "e17", what: "git log", command: "git log --oneline | wc -l", shows: "2" },
  {
    id: "e18",
    what: "reinstalling dependencies that ship .env files",
    command:
      "ls node_modules/local-pkg/.env.example && rm -rf node_modules && npm install ./local-pkg-1.0.0.tgz --no-audit --no-fund --silent && ls -a node_modules/local-pkg",
    shows: ".env.example",
  },
];
