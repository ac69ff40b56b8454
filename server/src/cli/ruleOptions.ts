/** The options eval, eval --compare and test share: the rule file's parameters, the evaluation's budget and time limit. */

/** Reads `key=value` into parameters (the value as JSON when it is JSON, else as text); an error message otherwise. */
export function readParameter(pair: string | undefined, parameters: Record<string, unknown>): string | undefined {
  const eq = pair?.indexOf('=') ?? -1;
  if (!pair || eq <= 0) return '--param takes key=value';
  const raw = pair.slice(eq + 1);
  try {
    parameters[pair.slice(0, eq)] = JSON.parse(raw);
  } catch {
    parameters[pair.slice(0, eq)] = raw;
  }
  return undefined;
}

/** The budget given to --budget, or an error message. */
export function readBudget(text: string | undefined): number | string {
  const value = Number(text);
  return Number.isInteger(value) && value >= 1 ? value : '--budget takes a whole number of at least 1';
}

/** Milliseconds a rule may run on one trace when --timeout does not say (as the editor's agentTraces.guardrails.timeout). */
export const defaultTimeoutMs = 5000;

/** The milliseconds given to --timeout, or an error message. */
export function readTimeout(text: string | undefined): number | string {
  const value = Number(text);
  return Number.isFinite(value) && value >= 1 ? value : '--timeout takes a number of milliseconds of at least 1';
}
