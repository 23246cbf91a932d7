import path from "node:path";
import type { ShellWord } from "./shell-word.ts";

/** Where relative paths of a command may resolve. */
export interface CwdState {
  /** Every directory the shell may be in at this point. */
  dirs: readonly string[];
  /** A `cd` went somewhere the analysis cannot know: relative targets are unresolvable. */
  unknown: boolean;
}

const MAX_DIRS = 16;

/**
 * Follows `cd`/`pushd` through a command line, as a set of possible directories.
 * Contract: the set only grows — after `cd X` both the old directories and X are possible, since
 * `cd` may fail (`cd missing; echo > ../x` writes relative to the old directory) and subshells,
 * `||` and pipelines decide at run time which one holds. `cd` is logical, like the shell's: `..`
 * is removed lexically. An unresolvable `cd` (variable, glob, `~user`, `-`) makes the state unknown.
 */
export class CwdTracker {
  #dirs: string[];
  #unknown = false;

  constructor(
    cwd: string,
    readonly home: string,
    /** CDPATH is set where the command runs: `cd name` may lead to any folder it lists. */
    readonly cdpath = false,
    /**
     * Unconfined: whether a path is a folder now. `cd NAME` that is none leads where the variable
     * NAME points when the shell has `cdable_vars` on (`cd HOME`), which the agent's shell may.
     */
    readonly isFolder?: (absolute: string) => boolean,
  ) {
    this.#dirs = [cwd];
  }

  /** The state relative targets at this point resolve against. */
  snapshot(): CwdState {
    return { dirs: [...this.#dirs], unknown: this.#unknown };
  }

  /** Applies `cd [DIR]` (`word` undefined: no operand, i.e. the home directory). */
  cd(word: ShellWord | undefined): void {
    if (word === undefined) this.#add([this.home]);
    // `cd -` goes to OLDPWD, which this command or an earlier one in the same shell may have set.
    else if (word.unresolved !== undefined || word.glob !== undefined || word.text === "-") this.#unknown = true;
    else if (this.cdpath && !/^(\/|\.\.?(\/|$))/.test(word.text)) this.#unknown = true;
    else if (this.#mayBeVariable(word.text)) this.#unknown = true;
    else this.#add(this.#dirs.map((dir) => path.resolve(dir, word.text)));
  }

  /** A name that is not a folder where the cd may run: `cdable_vars` takes it as a variable's name. */
  #mayBeVariable(name: string): boolean {
    const isFolder = this.isFolder;
    if (isFolder === undefined || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) return false;
    return this.#dirs.some((dir) => !isFolder(path.resolve(dir, name)));
  }

  #add(dirs: string[]): void {
    for (const dir of dirs) if (!this.#dirs.includes(dir)) this.#dirs.push(dir);
    if (this.#dirs.length > MAX_DIRS) this.#unknown = true;
  }
}
