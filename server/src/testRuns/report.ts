import { describePattern, type Expectation } from '../ruleTests/manifest';
import type { CaseResult, FoundViolation, Location } from './run';

/**
 * What a failed case says, the same on the command line and in the Test Explorer: one failure per missing or
 * unexpected violation (or the reason the case could not be judged), each at its place in the trace, and the
 * expected and found violations as two texts whose difference is the failure.
 */

export interface CaseFailure {
  /** Where to look: the trace at the missing or unexpected violation (or the case, when it could not run). */
  location?: Location;
  text: string;
  kind: 'missing' | 'unexpected' | 'error';
}

/** `"refund needs approval" at event 3, rule line 12`: an expectation as written. */
export function describeExpectation(e: Expectation): string {
  return `${describePattern(e.message)}${e.at !== undefined ? ` at event ${e.at}` : ''}${e.rule !== undefined ? `, rule line ${e.rule}` : ''}`;
}

/** A violation as an expectation would describe it: `"refund over limit" at event 3, rule line 9`. */
export function describeViolation(v: Pick<FoundViolation, 'message' | 'at' | 'rule'>): string {
  return `${JSON.stringify(v.message)}${v.at !== undefined ? ` at event ${v.at}` : ''}, rule line ${v.rule}`;
}

export function caseFailures(result: CaseResult, describeLocation: (location: Location) => string): CaseFailure[] {
  if (result.error) return [{ kind: 'error', text: result.error.message, location: result.error.kind === 'manifest' ? result.location : result.trace }];
  const failures: CaseFailure[] = [];
  const told = new Set<number>();
  for (const missing of result.missing) {
    const expected = result.expected[missing.expectation];
    const near = missing.nearMiss !== undefined ? result.found[missing.nearMiss] : undefined;
    let text = `missing ${describeExpectation(expected)}`;
    if (near && missing.nearMiss !== undefined) {
      text += `: found ${near.at !== undefined ? `at event ${near.at}, ` : ''}rule line ${near.rule} instead (${describeLocation(near.location)})`;
      // Said here: the same violation is not listed again as unexpected.
      told.add(missing.nearMiss);
    }
    failures.push({ kind: 'missing', location: missing.location, text });
  }
  for (const index of result.unexpected) {
    if (told.has(index)) continue;
    failures.push({ kind: 'unexpected', location: result.found[index].location, text: `unexpected ${describeViolation(result.found[index])}` });
  }
  return failures;
}

/**
 * The expected violations and the found ones as two texts, one line each, so that their difference is exactly the
 * failure: a matched expectation appears as written in both, a missing one only in the first, an unexpected
 * violation only in the second.
 */
export function expectedAndFound(result: CaseResult): { expected: string; found: string } {
  const missing = new Set(result.missing.map((m) => m.expectation));
  const expected = result.expected.map(describeExpectation);
  const found = result.expected.flatMap((e, i) => (missing.has(i) ? [] : [describeExpectation(e)]));
  for (const index of result.unexpected) found.push(describeViolation(result.found[index]));
  return { expected: lines(expected), found: lines(found) };
}

function lines(list: string[]): string {
  return list.length === 0 ? '(no violations)\n' : list.map((line) => `${line}\n`).join('');
}
