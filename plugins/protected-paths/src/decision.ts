import type { Spelling } from "./paths/spellings.ts";

/** A policy decision about one effect or one call. */
export type Decision =
  | {
      allow: true;
      /** Every spelling of every path that was checked. */
      spellings: Spelling[];
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
export function allow(spellings: Spelling[] = []): Decision {
  return { allow: true, spellings };
}

/** A denying decision whose reason reads `<subject> refused: <why> (<rule>).` */
export function deny(options: { subject: string; why: string; rule: string; spellings?: Spelling[] }): Decision {
  const reason = `${options.subject} refused: ${options.why} (${options.rule}).`;
  return { allow: false, rule: options.rule, reason, spellings: options.spellings ?? [] };
}
