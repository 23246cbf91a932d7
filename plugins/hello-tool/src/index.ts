// The example every Gatehouse author copies. It imports only "@gatehouse/sdk" (which re-exports
// zod as `z`), so the same file works as a package or dropped into `.gatehouse/extensions/`.
import { defineExtension, defineTool, z } from "@gatehouse/sdk";

/** Greets someone up to five times, reporting progress; signs its own results. */
export default defineExtension({
  name: "hello-tool",
  setup(api) {
    // Read config once, at load: a bad `config["hello-tool"]` fails this extension's load with the
    // file and field named, instead of failing mid-run. `.strict()` turns a typo into that error.
    const { greeting } = api.config(z.object({ greeting: z.string().default("Hello") }).strict());

    // defineTool returns a typed handle: registered here, and usable in matchers and `isToolCall`.
    const hello = defineTool({
      name: "hello",
      // Written for the model: what the tool does, when to use it, what comes back.
      description:
        "Greets a person by name, optionally several times and in capitals. " +
        "Use it to say hello; it returns the greeting text and touches no files.",
      // `.describe()` texts reach the model in the JSON schema; defaults fill what it leaves out.
      parameters: z.object({
        name: z.string().min(1).describe("Who to greet, e.g. Ada"),
        times: z.number().int().min(1).max(5).default(1).describe("How many greetings, 1 to 5"),
        shout: z.boolean().default(false).describe("Greet in capitals"),
      }),
      // Declare what a call touches, even when it is nothing: path policy checks every tool by
      // its effects, and an empty list says "no reads, writes, commands or network".
      effects: () => [],
      async execute({ name, times, shout }, ctx) {
        const lines: string[] = [];
        for (let i = 1; i <= times; i++) {
          // Check between steps of work: an aborted run must not keep a tool going.
          if (ctx.signal.aborted) throw new Error("aborted");
          const line = `${greeting}, ${name}!`;
          lines.push(shout ? line.toUpperCase() : line);
          // Progress becomes a tool_execution_update event for live views; it is never persisted.
          ctx.onUpdate({ content: [{ type: "text", text: `greeting ${i}/${times}` }] });
        }
        return { content: [{ type: "text", text: lines.join("\n") }], details: { greetings: lines.length } };
      },
    });
    api.registerTool(hello);

    // `{ tools: [hello] }`: the handler runs only for hello's results (other tools never call it),
    // and a successful result's `event.details` is typed as hello's details (an error result's
    // may be anything). The returned patch replaces whole fields (content, details, isError,
    // terminate): there is no deep merge, so keep the tool's own details by spreading them yourself.
    api.on(
      "tool_result",
      (event) => (event.isError ? undefined : { details: { ...event.details, signedBy: "hello-tool" } }),
      { tools: [hello] },
    );
  },
});
