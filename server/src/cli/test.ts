import { promises as fs } from 'node:fs';
import { basename, isAbsolute, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { guardrailService } from '../guardrail';
import { rulesOf } from '../guardrail/raises';
import { bytesPerMB, readTextFile } from '../disk/files';
import { traceLayoutOfFile } from '../traceFormats';
import { defaultTimeoutMs, readBudget, readTimeout } from './ruleOptions';
import { EvaluationWorkers } from '../rulesOnTraces/evaluationWorkers';
import { nodeWorkerLauncher } from '../rulesOnTraces/workerLauncher';
import { isManifestPath, manifestPathOf } from '../ruleTests/manifest';
import { runManifestText, type CaseResult, type Location, type ManifestResult, type RunHost } from '../testRuns/run';
import { caseFailures } from '../testRuns/report';
import { coverageOf, type RuleFileCoverage } from '../testRuns/coverage';
import { expandArguments } from './check';
import { escapeForTerminal, escapeJsonForTerminal } from './escape';
import { ExitCode, exitCodeHelp, exitCodeOf } from './exitCodes';
import { junitReport } from './junit';

export const testUsage = `Usage: agent-traces test [files, folders or globs...] [options]

Runs the tests of guardrail rule files: each X.tests.json manifest (beside X.gr) lists cases, each a trace and the
violations the rules must find on it. Folders (the current folder by default) are searched for manifests; a rule
file named on its own runs the manifest beside it.

Options:
  --coverage         also print, per rule (each raise), the number of cases it fired in; rule files in the
                     folders searched that no manifest tests are listed as not tested
  --json             print the results as JSON: per manifest its cases (name, status, expected, found violations
                     with their addresses and bindings, missing, unexpected), the counts, and the coverage
  --junit FILE       also write the results as JUnit XML to FILE
  --budget N         steps allowed per rule and trace (default 1000000)
  --timeout MS       milliseconds a rule may run on one trace (default 5000)
  -h, --help         show this help

Each failing case prints one line per failure, at the trace's file:line:col: an expected violation that was not
found (and where one with its message was found instead), or a violation the case does not expect. The last line
is "N passed, N failed". Failing cases are findings; a case whose rules failed or stopped at a limit on its trace
fails and is not evaluated, and one on whose trace a rule was not evaluated (a detector the evaluator does not
run: said once per manifest) is judged on the other rules but not fully evaluated; a manifest that does not parse or names a file that cannot be read (the rule file, a trace) and a
rule file that does not load are bad usage (exit 2), whatever the other manifests found.

${exitCodeHelp}`;

interface TestOptions {
  patterns: string[];
  json: boolean;
  junit?: string;
  coverage: boolean;
  budget?: number;
  timeoutMs: number;
}


/** Rule, manifest and trace files are read up to this size, as `agent-traces check` reads by default. */
const maxFileBytes = 100 * bytesPerMB;

function parseTestArguments(args: string[]): TestOptions | string {
  const options: TestOptions = { patterns: [], json: false, coverage: false, timeoutMs: defaultTimeoutMs };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--json') options.json = true;
    else if (arg === '--coverage') options.coverage = true;
    else if (arg === '--junit') {
      const file = args[++i];
      if (!file) return '--junit takes a file to write';
      options.junit = file;
    } else if (arg === '--budget') {
      const value = readBudget(args[++i]);
      if (typeof value === 'string') return value;
      options.budget = value;
    } else if (arg === '--timeout') {
      const value = readTimeout(args[++i]);
      if (typeof value === 'string') return value;
      options.timeoutMs = value;
    } else if (arg.startsWith('-')) return `unknown option ${arg}`;
    else options.patterns.push(arg);
  }
  if (options.patterns.length === 0) options.patterns.push('.');
  return options;
}

/** Manifests' files read from the disk, and their cases evaluated on `workers` (each rule bounded in time). */
const diskHost = (workers: EvaluationWorkers): RunHost => ({
  async read(uri) {
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch {
      return { ok: false, reason: 'not a file on disk' };
    }
    const read = await readTextFile(path, { maxBytes: maxFileBytes });
    return read.ok ? { ok: true, text: read.text } : read;
  },
  traceLayout: (uri, text) => traceLayoutOfFile(fileURLToPath(uri), text),
  evaluate: async (rules, trace, options) => (await workers.evaluateCase(rules, trace, options))!,
});

export async function runTest(args: string[]): Promise<number> {
  const options = parseTestArguments(args);
  if (typeof options === 'string') {
    console.error(`agent-traces test: ${options}\n\n${testUsage}`);
    return ExitCode.usage;
  }
  const cwd = process.cwd();
  const { files, unmatched, errors, skippedLinks, shown: shownNamed } = await expandArguments(options.patterns, cwd, (path) => isManifestPath(path) || path.toLowerCase().endsWith('.gr'));
  // Paths as the user gave them: a file found from an absolute name stays absolute, and so does a file a manifest
  // names (its rule file, its traces) when the manifests were named absolutely.
  const named = new Set(files);
  const namedAbsolutely = options.patterns.some((pattern) => isAbsolute(pattern));
  const shown = (path: string) => (named.has(path) ? shownNamed(path) : namedAbsolutely ? path : relative(cwd, path) || path);
  for (const link of skippedLinks) console.error(`agent-traces test: ${escapeForTerminal(link.path)}: skipped: ${link.reason}`);
  for (const pattern of unmatched) console.error(`agent-traces test: no manifest or rule file matches ${escapeForTerminal(pattern)}`);
  const manifests = new Set(files.filter(isManifestPath));
  const ruleFiles = files.filter((path) => path.toLowerCase().endsWith('.gr'));
  for (const rules of ruleFiles) {
    const beside = manifestPathOf(rules);
    if (manifests.has(beside)) continue;
    if (await isFile(beside)) manifests.add(beside);
  }

  const results: ManifestResult[] = [];
  const unreadable: { path: string; reason: string }[] = errors.map((e) => ({ path: e.path, reason: e.reason }));
  const workers = new EvaluationWorkers(nodeWorkerLauncher());
  try {
    for (const path of [...manifests].sort()) {
      const read = await readTextFile(path, { maxBytes: maxFileBytes });
      if (!read.ok) {
        unreadable.push({ path: shown(path), reason: read.reason });
        continue;
      }
      const host = diskHost(workers);
      results.push(await runManifestText(pathToFileURL(path).toString(), read.text, host, { budget: options.budget, timeLimitMs: options.timeoutMs }));
    }
  } finally {
    workers.close();
  }
  const coverage = options.coverage ? coverageOf(results, await untestedRules(ruleFiles, results)) : undefined;

  const display = (uri: string) => shown(fileURLToPath(uri));
  const where = (location: Location) => `${display(location.uri)}:${location.start.line + 1}:${location.start.character + 1}`;
  const cases = results.flatMap((r) => r.cases);
  const count = (status: CaseResult['status']) => cases.filter((c) => c.status === status).length;
  const totals = { passed: count('passed'), failed: count('failed'), skipped: count('skipped') };
  if (options.junit) await fs.writeFile(options.junit, junitReport(results, display, where), 'utf8');
  if (options.json) {
    console.log(escapeJsonForTerminal(JSON.stringify({
      manifests: results.map((r) => jsonOfManifest(r, display, where)),
      unreadable,
      ...totals,
      ...(coverage ? { coverage: coverage.flatMap((file) => jsonOfCoverage(file, display)) } : {}),
    }, null, 2)));
  } else {
    for (const { path, reason } of unreadable) console.log(`${escapeForTerminal(path)}: error: ${escapeForTerminal(reason)}`);
    printResults(results, display, where);
    if (coverage) printCoverage(coverage, display);
    const skipped = totals.skipped > 0 ? `, ${totals.skipped} skipped` : '';
    console.log(`${totals.passed} passed, ${totals.failed} failed${skipped}`);
  }
  const manifestProblem = unreadable.length > 0 || results.some((r) => r.problem || r.cases.some((c) => c.error?.kind === 'manifest'));
  if (manifestProblem) return ExitCode.usage;
  const verdicts = cases.some((c) => c.status === 'failed' && !c.error);
  // As eval counts them: a case on whose trace a rule was not evaluated (a detector it does not run) is judged on the
  // other rules, but its trace was not fully evaluated.
  const notEvaluated = cases.some((c) => c.error?.kind === 'evaluation' || c.notes.length > 0);
  return exitCodeOf({ findings: verdicts, incomplete: notEvaluated || unmatched.length > 0 });
}

function printResults(results: ManifestResult[], display: (uri: string) => string, where: (location: Location) => string): void {
  const notes = new Set<string>();
  for (const result of results) {
    const manifest = display(result.uri);
    if (result.problem) {
      console.log(`${escapeForTerminal(manifest)}: error: ${escapeForTerminal(result.problem)}`);
      continue;
    }
    for (const c of result.cases) {
      for (const note of c.notes) {
        const line = `${manifest}: note: ${note}`;
        if (!notes.has(line)) console.log(escapeForTerminal(line));
        notes.add(line);
      }
      if (c.status !== 'failed') continue;
      for (const failure of caseFailures(c, where)) {
        const at = failure.location ? `${where(failure.location)} ` : `${manifest}: `;
        console.log(escapeForTerminal(`${at}FAIL ${basename(manifest)} › ${c.name}: ${failure.text}`));
      }
    }
  }
}

function printCoverage(coverage: RuleFileCoverage[], display: (uri: string) => string): void {
  console.log('Coverage: the cases each rule fired in');
  for (const file of coverage) {
    const path = display(file.uri);
    for (const { rule, cases } of file.rules) {
      const count = file.manifests.length === 0
        ? 'not tested (no manifest runs this rule file)'
        : `fired in ${cases} of ${file.cases} case${file.cases === 1 ? '' : 's'}${cases === 0 ? ' (never fires)' : ''}`;
      console.log(escapeForTerminal(`  ${path}:${rule.line} ${rule.label}: ${count}`));
    }
    if (file.rules.length === 0) console.log(escapeForTerminal(`  ${path}: no rules`));
  }
}

function jsonOfManifest(result: ManifestResult, display: (uri: string) => string, where: (location: Location) => string): unknown {
  const file = (location: Location) => ({ file: display(location.uri), line: location.start.line + 1, column: location.start.character + 1 });
  return {
    file: display(result.uri),
    rules: result.rulesUri ? display(result.rulesUri) : null,
    error: result.problem ?? null,
    cases: result.cases.map((c) => ({
      name: c.name,
      status: c.status,
      ...(c.error ? { error: c.error.message } : {}),
      expected: c.expected.map((e) => ({ message: e.message.kind === 'exact' ? e.message.text : e.message.source, ...(e.at !== undefined ? { at: e.at } : {}), ...(e.rule !== undefined ? { rule: e.rule } : {}) })),
      found: c.found.map((v) => ({
        message: v.message, rule: v.rule, ...(v.at !== undefined ? { at: v.at } : {}), location: file(v.location), ranges: v.ranges,
        bindings: Object.fromEntries(v.bindings.map((b) => [b.variable, b.address])),
      })),
      missing: c.missing.map((m) => m.expectation),
      unexpected: c.unexpected,
      failures: c.status === 'failed' ? caseFailures(c, where).map((f) => ({ ...(f.location ? file(f.location) : {}), kind: f.kind, text: f.text })) : [],
      ...(c.notes.length > 0 ? { notes: c.notes } : {}),
      durationMs: Math.round(c.durationMs * 10) / 10,
    })),
  };
}

function jsonOfCoverage(file: RuleFileCoverage, display: (uri: string) => string): unknown[] {
  return file.rules.map(({ rule, cases }) => ({
    file: display(file.uri), line: rule.line, message: rule.label, cases, of: file.cases, tested: file.manifests.length > 0,
  }));
}

/** The rules of rule files that were searched but that no manifest run here tests. */
async function untestedRules(ruleFiles: string[], results: ManifestResult[]): Promise<{ uri: string; rules: ReturnType<typeof rulesOf> }[]> {
  const tested = new Set(results.map((r) => r.rulesUri));
  const out = [];
  for (const path of ruleFiles) {
    const uri = pathToFileURL(path).toString();
    if (tested.has(uri)) continue;
    const read = await readTextFile(path, { maxBytes: maxFileBytes });
    if (!read.ok) continue;
    out.push({ uri, rules: rulesOf(guardrailService.parse({ uri, version: 0, text: read.text })) });
  }
  return out;
}

async function isFile(path: string): Promise<boolean> {
  return (await fs.stat(path).catch(() => undefined))?.isFile() ?? false;
}
