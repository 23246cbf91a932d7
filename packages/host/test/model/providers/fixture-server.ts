import { readFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";

const FIXTURES = fileURLToPath(new URL("./fixtures/", import.meta.url));

/** One recorded answer the server replays, in order, to one request. */
export interface Reply {
  /** A file under `fixtures/`: `.sse` is streamed event by event, anything else is sent as JSON. */
  file: string;
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /**
   * Stop after this many SSE events: `reset` destroys the socket, `hang` waits for the client to
   * leave, `end` ends the response cleanly as if the stream were complete.
   */
  cut?: { after: number; action: "reset" | "hang" | "end" };
}

/** What the server saw of one request. */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (or the raw text when it is not JSON). */
  body: unknown;
  /** `performance.now()` when the request arrived. */
  receivedAt: number;
  /** Resolves when the connection of this request closed before the server ended the response. */
  closedEarly: Promise<void>;
}

/** A loopback HTTP server replaying recorded provider responses. */
export interface FixtureServer {
  /** `http://127.0.0.1:<port>/v1`, the base URL every adapter posts under. */
  baseURL: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** The SSE events of a fixture file, each with its trailing blank line. */
export function sseEvents(file: string): string[] {
  const text = readFileSync(FIXTURES + file, "utf8");
  return text
    .split(/\n\n/)
    .filter((event) => event.trim() !== "")
    .map((event) => `${event}\n\n`);
}

/**
 * Starts a server on 127.0.0.1 (port 0) that answers the n-th request with `replies[n]`.
 * A request beyond the replies gets a 500 naming the problem, so a test that sends too many fails.
 */
export async function startFixtureServer(replies: readonly Reply[]): Promise<FixtureServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const receivedAt = performance.now();
    let markClosed: () => void = () => {};
    const closedEarly = new Promise<void>((resolve) => {
      markClosed = resolve;
    });
    res.on("close", () => {
      if (!res.writableFinished) markClosed();
    });
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const record: RecordedRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        headers: req.headers,
        body: parseBody(text),
        receivedAt,
        closedEarly,
      };
      const reply = replies[requests.length];
      requests.push(record);
      if (reply === undefined) {
        res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: `fixture server: no reply for request ${requests.length}` } }));
        return;
      }
      void answer(res, reply);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(res: ServerResponse, reply: Reply): Promise<void> {
  const status = reply.status ?? 200;
  if (!reply.file.endsWith(".sse")) {
    res.writeHead(status, { "content-type": "application/json", ...reply.headers });
    res.end(readFileSync(FIXTURES + reply.file, "utf8"));
    return;
  }
  res.writeHead(status, { "content-type": "text/event-stream", "cache-control": "no-cache", ...reply.headers });
  const events = sseEvents(reply.file);
  const limit = reply.cut?.after ?? events.length;
  for (const event of events.slice(0, limit)) {
    if (res.destroyed) return;
    res.write(event);
    // One event per network write, so the client sees the stream arrive piece by piece.
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (reply.cut?.action === "reset") res.socket?.destroy();
  else if (reply.cut?.action !== "hang") res.end();
}

function parseBody(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
