import { caseFailures } from '../testRuns/report';
import type { Location, ManifestResult } from '../testRuns/run';

/**
 * Test results as JUnit XML, which CI systems read: a test suite per manifest, a test case per case (failed with
 * its failure lines, skipped, or passed), and a manifest that could not run as one case in error.
 */
export function junitReport(results: ManifestResult[], display: (uri: string) => string, where: (location: Location) => string): string {
  const suites: string[] = [];
  let tests = 0;
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  for (const result of results) {
    const manifest = display(result.uri);
    const cases: string[] = [];
    let suiteFailures = 0;
    let suiteErrors = 0;
    let suiteSkipped = 0;
    if (result.problem) {
      suiteErrors++;
      cases.push(`    <testcase name="(manifest)" classname="${attribute(manifest)}" time="0"><error message="${attribute(result.problem)}"/></testcase>`);
    }
    for (const c of result.cases) {
      const head = `    <testcase name="${attribute(c.name)}" classname="${attribute(manifest)}" time="${(c.durationMs / 1000).toFixed(3)}"`;
      if (c.status === 'passed') cases.push(`${head}/>`);
      else if (c.status === 'skipped') {
        suiteSkipped++;
        cases.push(`${head}><skipped/></testcase>`);
      } else {
        const lines = caseFailures(c, where).map((f) => `${f.location ? `${where(f.location)} ` : ''}${f.text}`);
        const tag = c.error?.kind === 'evaluation' || c.error?.kind === 'manifest' ? 'error' : 'failure';
        if (tag === 'error') suiteErrors++;
        else suiteFailures++;
        cases.push(`${head}><${tag} message="${attribute(lines[0] ?? 'failed')}">${text(lines.join('\n'))}</${tag}></testcase>`);
      }
    }
    const count = cases.length;
    tests += count;
    failures += suiteFailures;
    errors += suiteErrors;
    skipped += suiteSkipped;
    suites.push(`  <testsuite name="${attribute(manifest)}" tests="${count}" failures="${suiteFailures}" errors="${suiteErrors}" skipped="${suiteSkipped}">\n${cases.join('\n')}${cases.length > 0 ? '\n' : ''}  </testsuite>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="agent-traces test" tests="${tests}" failures="${failures}" errors="${errors}" skipped="${skipped}">\n${suites.join('\n')}${suites.length > 0 ? '\n' : ''}</testsuites>\n`;
}

/** Text as XML 1.0 allows it: markup escaped, and characters XML cannot hold at all (most control characters) as `\uXXXX`. */
function text(value: string): string {
  return value
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function attribute(value: string): string {
  return text(value).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}
