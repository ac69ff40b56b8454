/** The options eval and eval --compare share: the rule file's parameters and the evaluation's budget. */

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
