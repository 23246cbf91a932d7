import type { Message } from "@gatehouse/sdk";
import { errorMessage } from "../common/errors.ts";
import type { Session } from "../session/session.ts";
import type { EventHub } from "./event-hub.ts";

/**
 * Connects a session file to a host: returns the context to start from (what the next model
 * request must receive) and records every message as it is finalized.
 * Contract: tool calls left without a result by a crash get their synthesized error results
 * appended to the file right away, so the file holds exactly the context the model will see.
 * Messages are appended on `message_end` (the prompt before the first model call), and the file
 * is synced at every turn end. A failed write stops the run through `onFailure`: a transcript
 * must never silently stop being recorded.
 */
export function bindSession(session: Session, hub: EventHub, onFailure: (reason: string) => void): Message[] {
  const built = session.context();
  for (const result of built.synthesized) session.appendMessage(result, { synthetic: true });
  hub.subscribe((event) => {
    try {
      if (event.type === "message_end") session.appendMessage(event.message);
      else if (event.type === "turn_end" || event.type === "agent_end") session.sync();
    } catch (error) {
      onFailure(errorMessage(error));
    }
  });
  return built.messages;
}
