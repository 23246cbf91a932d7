import type { AgentEvent, ExecutionMode, Logger, Message, ToolEffect, UserMessage } from "@gatehouse/sdk";
import { keepShape } from "../common/keep-shape.ts";
import { stderrLogger } from "../common/stderr-logger.ts";
import type { GuardPins, LoopConfig, TurnState } from "../loop/types.ts";
import { createScriptedModel } from "../model/scripted-model.ts";
import type { Model } from "../model/types.ts";
import { pinEffectTargets } from "../tools/effect-pins.ts";
import { EventHub } from "./event-hub.ts";

/** What one host run hands the loop besides its callbacks. */
export interface RunConfigFields {
  model: Model;
  messages: Message[];
  hub: EventHub;
  prepareTurn: () => TurnState | Promise<TurnState>;
  steering: UserMessage[];
  followUps: UserMessage[];
  maxTurns: number | undefined;
  toolExecution: ExecutionMode | undefined;
  signal: AbortSignal;
  maxArgumentBytes: number | undefined;
  cwd: string;
  logger: Logger;
}

/**
 * The `LoopConfig` of one `host.run()`: the loop's callbacks are this class's methods, and what a
 * run learns from them (the turn limit reached, a guard's halt) is kept on it.
 * Why a class rather than an object of arrow functions: the loop calls its callbacks on every
 * event and call. An arrow function made per host is a new call target for every host; V8
 * inlines the one it saw, and when that host is collected the optimised loop is thrown away, so
 * each new host ran cold again. A method is one function for every host (see bench/README.md,
 * "Why a run can be slow").
 * Contract: the loop calls every callback as a method of the config (`config.emit(event)`).
 */
export class RunConfig implements LoopConfig {
  readonly model: Model;
  readonly messages: Message[];
  readonly toolExecution: ExecutionMode | undefined;
  readonly signal: AbortSignal;
  readonly maxArgumentBytes: number | undefined;
  readonly cwd: string;
  readonly logger: Logger;
  /** The turn limit ended a run that would have gone on. */
  limitReached = false;
  /** The guard that ended the run with `terminate: true`, and why. */
  halted: { extension: string; reason: string } | undefined = undefined;
  readonly #hub: EventHub;
  readonly #prepareTurn: () => TurnState | Promise<TurnState>;
  readonly #steering: UserMessage[];
  readonly #followUps: UserMessage[];
  readonly #maxTurns: number | undefined;

  constructor(fields: RunConfigFields) {
    this.model = fields.model;
    this.messages = fields.messages;
    this.toolExecution = fields.toolExecution;
    this.signal = fields.signal;
    this.maxArgumentBytes = fields.maxArgumentBytes;
    this.cwd = fields.cwd;
    this.logger = fields.logger;
    this.#hub = fields.hub;
    this.#prepareTurn = fields.prepareTurn;
    this.#steering = fields.steering;
    this.#followUps = fields.followUps;
    this.#maxTurns = fields.maxTurns;
  }

  prepareTurn(): TurnState | Promise<TurnState> {
    return this.#prepareTurn();
  }

  emit(event: AgentEvent): Promise<void> | undefined {
    return this.#hub.emit(event);
  }

  getSteeringMessages(): Message[] {
    return this.#steering.splice(0, this.#steering.length);
  }

  getFollowUpMessages(): Message[] {
    return this.#followUps.splice(0, this.#followUps.length);
  }

  shouldStopAfterTurn(turn: number, continuing: boolean): boolean {
    if (this.#maxTurns === undefined || turn < this.#maxTurns) return false;
    this.limitReached = continuing;
    return true;
  }

  onHalt(halt: { by: string; reason: string }): void {
    this.halted = { extension: halt.by, reason: halt.reason };
  }

  pinEffects(effects: readonly ToolEffect[], guards?: GuardPins): Map<string, readonly string[]> {
    return pinEffectTargets(effects, this.cwd, guards);
  }
}

// One idle config, hub and scripted model for the life of the process (see `keepShape`): their
// layouts are built by adding fields in the constructor, so without a live instance the full GC
// between two hosts' runs dropped them and, with them, the loop's optimised code.
keepShape(
  new RunConfig({
    model: keepShape(createScriptedModel({ turns: [] })),
    messages: [],
    hub: keepShape(new EventHub(stderrLogger({ level: "silent" }))),
    prepareTurn: () => {
      throw new Error("the idle config is never run");
    },
    steering: [],
    followUps: [],
    maxTurns: undefined,
    toolExecution: undefined,
    signal: new AbortController().signal,
    maxArgumentBytes: undefined,
    cwd: "/",
    logger: stderrLogger({ level: "silent" }),
  }),
);
