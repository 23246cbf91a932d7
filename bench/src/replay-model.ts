import type { AssistantMessage } from "@gatehouse/sdk";
import type { Model, ModelStreamEvent } from "../../packages/host/src/model/types.ts";

/**
 * A model that replays prepared messages: `start` then `end` per request, nothing else, so a
 * benchmark measures the pipeline and not the model. Throws when asked for more than it holds.
 */
export function replayModel(messages: readonly AssistantMessage[]): Model {
  let next = 0;
  return {
    id: "bench-scripted",
    async *stream(): AsyncGenerator<ModelStreamEvent> {
      const message = messages[next++];
      if (!message) throw new Error("bench script exhausted");
      yield { type: "start", partial: message };
      yield { type: "end", message };
    },
  };
}
