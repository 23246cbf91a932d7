import type { CheckedFileIdentity } from "@gatehouse/sdk";
import type { Spelling } from "./paths/spellings.ts";

/** A policy decision about one effect or one call. */
export type Decision =
  | {
      allow: true;
      /** Every spelling of every path that was checked. */
      spellings: Spelling[];
      /** What the real path was when it was checked (one read or write effect), for pins. */
      identity?: CheckedFileIdentity;
    }
  | {
      allow: false;
      /** The rule that decided, e.g. "default denyWrite .env", "outside workspace", "hard link". */
      rule: string;
      /** One sentence for the model: what was refused, why, and the rule. */
      reason: string;
      /** The spellings of the offending path that were checked. */
      spellings: Spelling[];
    };

/** An allowing decision. */
export function allow(spellings: Spelling[] = [], identity?: CheckedFileIdentity): Decision {
  return identity === undefined ? { allow: true, spellings } : { allow: true, spellings, identity };
}

/** A denying decision whose reason reads `<subject> refused: <why> (<rule>).` */
export function deny(options: { subject: string; why: string; rule: string; spellings?: Spelling[] }): Decision {
  const reason = `${options.subject} refused: ${options.why} (${options.rule}).`;
  return { allow: false, rule: options.rule, reason, spellings: options.spellings ?? [] };
}
