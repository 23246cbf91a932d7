import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { GatehouseEvent } from "@gatehouse/sdk";
import { grantTrust } from "../../src/config/index.ts";
import { createHost } from "../../src/host/create-host.ts";
import { openProject } from "../../src/host/project-extensions.ts";
import type { Host, HostOptions } from "../../src/host/types.ts";
import { createScriptedModel } from "../../src/model/index.ts";
import { quietLogger, tempDir } from "../helpers/scenario.ts";

/** A temp project and a temp Gatehouse home, with files written from a map of relative paths. */
export interface TestProject {
  dir: string;
  home: string;
  env: NodeJS.ProcessEnv;
  write(path: string, body: string): string;
  writeHome(path: string, body: string): string;
}

/** Creates a project directory and an isolated GATEHOUSE_HOME. */
export function makeProject(files: Record<string, string> = {}, homeFiles: Record<string, string> = {}): TestProject {
  const dir = tempDir("gh-proj-");
  const home = tempDir("gh-home-");
  const put = (root: string) => (path: string, body: string) => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, body);
    return full;
  };
  const project = { dir, home, env: { GATEHOUSE_HOME: home }, write: put(dir), writeHome: put(home) };
  for (const [p, b] of Object.entries(files)) project.write(p, b);
  for (const [p, b] of Object.entries(homeFiles)) project.writeHome(p, b);
  return project;
}

/** An extension file that registers a tool answering with `text`, and records its load order. */
export function toolExtension(name: string, tool: string, text: string): string {
  return `import { defineExtension, defineTool, z } from "@gatehouse/sdk";
export default defineExtension({
  name: ${JSON.stringify(name)},
  setup(api) {
    ((globalThis as any).__ghLoadOrder ??= []).push(${JSON.stringify(name)});
    api.registerTool(defineTool({
      name: ${JSON.stringify(tool)},
      description: "test tool",
      parameters: z.object({}),
      effects: () => [],
      execute: () => ({ content: [{ type: "text", text: ${JSON.stringify(text)} }] }),
    }));
  },
});
`;
}

const open: Host[] = [];

/** Closes every host `openHost` opened (their trust-gate registrations included). */
export async function closeHosts(): Promise<void> {
  for (const host of open.splice(0)) await host.close();
}

/** Trusts the project's enabled extensions as they are now, as `gatehouse trust` does. */
export function trustProject(project: TestProject): void {
  const opened = openProject({ cwd: project.dir, env: project.env }, quietLogger);
  try {
    const extensions = opened.projectCode().map((c) => ({ key: c.key, files: c.graph.files }));
    grantTrust({ home: project.home, projectDir: project.dir, extensions });
  } finally {
    opened.close();
  }
}

/** Opens a host on the project with discovery; events are collected; `closeHosts` closes it. */
export async function openHost(
  project: TestProject,
  options: Partial<HostOptions> & { turns?: unknown[] } = {},
): Promise<{ host: Host; events: GatehouseEvent[] }> {
  const events: GatehouseEvent[] = [];
  const { turns, ...rest } = options;
  const host = await createHost({
    cwd: project.dir,
    model: createScriptedModel({ turns: turns ?? [] } as never),
    discover: true,
    env: project.env,
    logger: quietLogger,
    onEvent: (e) => events.push(e),
    ...rest,
  });
  open.push(host);
  return { host, events };
}

/** The text of the first tool result of a run. */
export function firstResultText(messages: readonly { role: string; content?: unknown }[]): string {
  const result = messages.find((m) => m.role === "toolResult") as { content: { text?: string }[] } | undefined;
  return result?.content.map((c) => c.text ?? "").join("") ?? "";
}
