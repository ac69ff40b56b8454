import { matchesMessage, type Expectation } from '../ruleTests/manifest';

/** What an expectation is matched against: a violation's message, first event and rule line. */
export interface Matchable {
  message: string;
  at?: number;
  rule: number;
}

export function satisfies(expectation: Expectation, violation: Matchable): boolean {
  if (!matchesMessage(expectation.message, violation.message)) return false;
  if (expectation.at !== undefined && expectation.at !== violation.at) return false;
  return expectation.rule === undefined || expectation.rule === violation.rule;
}

/**
 * Pairs each expectation with a distinct violation it describes, as many as can be paired (a maximum matching:
 * an entry `/refund/` listed first never takes the one violation an exact entry after it needs). Returns, per
 * expectation, the index of its violation or -1.
 */
export function matchExpectations(expected: Expectation[], found: Matchable[]): number[] {
  const candidates = expected.map((e) => found.flatMap((v, i) => (satisfies(e, v) ? [i] : [])));
  const owner = new Array<number>(found.length).fill(-1);
  const pairedWith = new Array<number>(expected.length).fill(-1);
  const tryPair = (e: number, visited: Set<number>): boolean => {
    for (const v of candidates[e]) {
      if (visited.has(v)) continue;
      visited.add(v);
      if (owner[v] < 0 || tryPair(owner[v], visited)) {
        owner[v] = e;
        pairedWith[e] = v;
        return true;
      }
    }
    return false;
  };
  for (let e = 0; e < expected.length; e++) tryPair(e, new Set());
  return pairedWith;
}
