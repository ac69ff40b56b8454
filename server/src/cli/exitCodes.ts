/** The exit status of every `agent-traces` command: one table, so that scripts can rely on it whatever they run. */
export const ExitCode = {
  /** Every input was read and evaluated, and nothing was found. */
  clean: 0,
  /** Findings: errors, violations, failing tests, differences, flips. */
  findings: 1,
  /** Bad usage, a rule file that does not load, a test manifest that does not parse: nothing was run. */
  usage: 2,
  /** Some inputs could not be read or evaluated (missing, unreadable, not text, a rule that failed or timed out on them), and nothing was found in the rest. */
  incomplete: 3,
  /** Findings, and some inputs could not be read or evaluated. */
  findingsAndIncomplete: 4,
} as const;

export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** What a run that got past its usage checks found: the exit status follows from these two facts alone. */
export interface RunOutcome {
  /** Errors, violations, failing tests, differences or flips were found. */
  findings: boolean;
  /** Some input was missing, unreadable, not text, or a rule failed or timed out on it. */
  incomplete: boolean;
}

export function exitCodeOf({ findings, incomplete }: RunOutcome): ExitCode {
  if (incomplete) return findings ? ExitCode.findingsAndIncomplete : ExitCode.incomplete;
  return findings ? ExitCode.findings : ExitCode.clean;
}

/** The table as `--help` prints it, the same for every command. */
export const exitCodeHelp = `Exit status (the same for every command):
  0  nothing found
  1  findings (errors, violations, failing tests, differences, flips)
  2  bad usage, a rule file that does not load, a test manifest that does not parse
  3  some inputs could not be read or evaluated (missing, unreadable, not text, a rule that failed or timed
     out on them) and nothing was found in the others
  4  findings, and some inputs could not be read or evaluated`;
