import type { Span } from '../common/types';
import { LineIndex } from '../common/lineIndex';
import { fileNameOfUri, resolveUri } from '../common/uri';
import { buildModel, type RuleModel } from '../guardrail/model';
import type { VariableBinding } from '../guardrail/evaluate';
import { rulesOf, type RuleInfo } from '../guardrail/raises';
import { parseManifest, type Expectation, type ManifestModel, type TestCase } from '../ruleTests/manifest';
import { ErrorPlacer, firstLineOf, noTraceMessage, traceInSpan, tracesInText, type TraceText } from '../rulesOnTraces/tracesInText';
import type { CaseEvaluation, CaseOptions, RuleSource } from '../rulesOnTraces/workerProtocol';
import { matchExpectations, satisfies } from './match';
import { notTracesReason, type TraceLayout } from '../traceFormats';

/**
 * Runs the cases of a rule file's tests: each case's trace, read as `agent-traces eval` reads it (a trace file, a
 * dataset line, or the trace written in the manifest), evaluated with the rule file and the case's parameters, its
 * violations matched with what the case expects. The command line and the editor's Test Explorer both run tests
 * here; what they read comes through the host (the disk, or the editor's open documents).
 */

export interface Position {
  /** 0-based, as the editor counts; the command line prints them 1-based. */
  line: number;
  character: number;
}

export interface Location {
  uri: string;
  start: Position;
  end: Position;
}

export type FileRead = { ok: true; text: string } | { ok: false; reason: string };

export interface RunHost {
  /** A file a manifest names (the rule file, a trace): its text, or why it cannot be read. */
  read(uri: string): Promise<FileRead>;
  /** How a file holds traces, decided by its name and text as `agent-traces eval` decides: one, one per line, none. */
  traceLayout(uri: string, text: string): TraceLayout | undefined;
  /**
   * The rule file on a case's trace: on the evaluation workers, which stop a rule at its time limit (the editor and
   * the command line), so that a hostile rule file in a manifest cannot hold up the editor.
   */
  evaluate(rules: RuleSource, trace: unknown, options: CaseOptions): Promise<CaseEvaluation>;
  /** Called between cases: a turn of the event loop in the editor; throw to stop the run. */
  pause?(): Promise<void>;
}

export interface RunOptions {
  /** Steps per rule and trace (`--budget`, agentTraces.guardrails.workBudget). */
  budget?: number;
  /** Milliseconds per rule and trace. */
  timeLimitMs?: number;
  /** Only these cases (by index); absent: every case. */
  cases?: ReadonlySet<number>;
}

export interface FoundViolation {
  message: string;
  ruleIndex: number;
  /** 1-based line of the rule's `raise`. */
  rule: number;
  /** The 0-based event its first range lies in; absent when it has no range. */
  at?: number;
  /** Official addresses (runs of single characters given by their first). */
  ranges: string[];
  bindings: (VariableBinding & { location: Location })[];
  location: Location;
}

export interface MissingViolation {
  /** Index in the case's `expect`. */
  expectation: number;
  /** Where it was expected: its event (`at`) in the trace, else the trace's start. */
  location: Location;
  /** A violation with the same message that is not where the case expects it (another event or rule), if any. */
  nearMiss?: number;
}

export type CaseStatus = 'passed' | 'failed' | 'skipped';

export interface CaseResult {
  index: number;
  name: string;
  status: CaseStatus;
  /**
   * Why the case was not judged on its violations: `manifest` (the trace cannot be read or holds no trace there),
   * `evaluation` (a rule failed, or stopped at a limit, on the trace). The case then fails.
   */
  error?: { kind: 'manifest' | 'evaluation'; message: string };
  expected: Expectation[];
  found: FoundViolation[];
  missing: MissingViolation[];
  /** Indexes in `found` that no expectation asked for (empty when the case allows others). */
  unexpected: number[];
  /** Rules not evaluated on the trace (a detector the evaluator does not run): said, not failed. */
  notes: string[];
  /** Where the trace is: its file (or the manifest, for an inline trace) and its first line. */
  trace?: Location;
  /** The case in the manifest (its name). */
  location: Location;
  /** Rules (by index) that fired on the trace. */
  fired: number[];
  durationMs: number;
}

export interface ManifestResult {
  uri: string;
  rulesUri?: string;
  /** Why no case was run: the manifest does not parse, or its rule file is missing or does not load. */
  problem?: string;
  /** Every rule of the rule file (for coverage). */
  rules: RuleInfo[];
  cases: CaseResult[];
}

export async function runManifestText(uri: string, text: string, host: RunHost, options: RunOptions = {}): Promise<ManifestResult> {
  return runManifest(parseManifest(uri, 0, text), host, options);
}

export async function runManifest(manifest: ManifestModel, host: RunHost, options: RunOptions = {}): Promise<ManifestResult> {
  const result: ManifestResult = { uri: manifest.uri, rules: [], cases: [] };
  const errors = manifest.problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) {
    const at = manifest.lines.positionAt(errors[0].span.start);
    result.problem = `the manifest does not parse: ${errors[0].message} (line ${at.line + 1}, column ${at.character + 1})`;
    return result;
  }
  const rulesUri = resolveUri(manifest.uri, manifest.rules.path);
  if (!rulesUri) {
    result.problem = `the rule file ${JSON.stringify(manifest.rules.path)} is not a path`;
    return result;
  }
  result.rulesUri = rulesUri;
  const rulesRead = await host.read(rulesUri);
  if (!rulesRead.ok) {
    result.problem = `the rule file ${manifest.rules.path} cannot be read: ${rulesRead.reason}`;
    return result;
  }
  const rules = buildModel({ uri: rulesUri, version: 0, text: rulesRead.text });
  result.rules = rulesOf(rules);
  const traces = new TraceFiles(host);
  const evaluate = (trace: unknown, parameters: Record<string, unknown>) =>
    host.evaluate({ uri: rulesUri, text: rulesRead.text }, trace, { parameters, budget: options.budget, timeLimitMs: options.timeLimitMs });
  for (const testCase of manifest.cases) {
    if (options.cases && !options.cases.has(testCase.index)) continue;
    await host.pause?.();
    const ran = await runCase(manifest, testCase, rules, result.rules, traces, evaluate);
    // Whether the rule file loads is known from its first evaluation (the evaluator decides it, on its worker).
    if (ran.notLoaded) {
      const at = rules.lines.positionAt(ran.notLoaded.start);
      result.problem = `the rule file ${manifest.rules.path} does not load: ${ran.notLoaded.message} (line ${at.line + 1})`;
      result.cases = [];
      return result;
    }
    result.cases.push(ran.result);
  }
  return result;
}

/** The texts of the traces a manifest names, each read once however many cases use it. */
class TraceFiles {
  private readonly read = new Map<string, Promise<FileRead>>();

  constructor(private readonly host: RunHost) {}

  get(uri: string): Promise<FileRead> {
    let found = this.read.get(uri);
    if (!found) this.read.set(uri, (found = this.host.read(uri)));
    return found;
  }

  layout(uri: string, text: string): TraceLayout | undefined {
    return this.host.traceLayout(uri, text);
  }
}

interface CaseTraceText {
  uri: string;
  text: string;
  lines: LineIndex;
  found: TraceText;
}

async function caseTrace(manifest: ManifestModel, testCase: TestCase, traces: TraceFiles): Promise<CaseTraceText | string> {
  const trace = testCase.trace!;
  if (trace.kind === 'inline') {
    // The trace written in the manifest is read from the manifest's own text, so its violations point into it.
    return { uri: manifest.uri, text: manifest.text, lines: manifest.lines, found: traceInSpan(manifest.text, trace.span.start, trace.span.end) };
  }
  const uri = resolveUri(manifest.uri, trace.path);
  if (!uri) return `${JSON.stringify(trace.path)} is not a path`;
  const read = await traces.get(uri);
  if (!read.ok) return `the trace ${trace.path} cannot be read: ${read.reason}`;
  const layout = traces.layout(uri, read.text);
  if (!layout) return `${trace.path}: ${notTracesReason}`;
  const lines = new LineIndex(read.text);
  if (layout === 'trace') {
    if (testCase.line !== undefined) return `"line" picks a line of a dataset, and ${trace.path} is a trace file`;
    const [found] = tracesInText(read.text, 'trace');
    return { uri, text: read.text, lines, found };
  }
  if (testCase.line === undefined) {
    const all = [...tracesInText(read.text, layout, uri)];
    if (all.length !== 1) return `${trace.path} holds ${all.length} traces: say which with "line"`;
    return { uri, text: read.text, lines, found: all[0] };
  }
  if (layout !== 'dataset') {
    // A converted format's traces (an Anthropic JSON Lines file's conversations) are picked by the line they start on.
    const found = [...tracesInText(read.text, layout, uri)].find((candidate) => candidate.line === testCase.line);
    return found ? { uri, text: read.text, lines, found } : `no trace of ${trace.path} starts at line ${testCase.line}`;
  }
  if (testCase.line > lines.lineCount) return `${trace.path} has ${lines.lineCount} lines, not ${testCase.line}`;
  const start = lines.lineStart(testCase.line - 1);
  let end = testCase.line < lines.lineCount ? lines.lineStart(testCase.line) : read.text.length;
  while (end > start && (read.text.charCodeAt(end - 1) === 10 || read.text.charCodeAt(end - 1) === 13)) end--;
  const found = traceInSpan(read.text, start, end, testCase.line);
  if (read.text.slice(start, end).trim() === '' || found.problem?.kind === 'no-trace') return `line ${testCase.line} of ${trace.path} holds no trace`;
  return { uri, text: read.text, lines, found };
}

type CaseRun = { result: CaseResult; notLoaded?: undefined } | { result?: undefined; notLoaded: NonNullable<CaseEvaluation['notLoaded']> };

async function runCase(
  manifest: ManifestModel, testCase: TestCase, rules: RuleModel, ruleInfos: RuleInfo[], traces: TraceFiles,
  evaluate: (trace: unknown, parameters: Record<string, unknown>) => Promise<CaseEvaluation>,
): Promise<CaseRun> {
  const started = performance.now();
  const result: CaseResult = {
    index: testCase.index, name: testCase.name, status: 'failed', expected: testCase.expect, found: [], missing: [], unexpected: [], notes: [], fired: [], durationMs: 0,
    location: { uri: manifest.uri, start: manifest.lines.positionAt(testCase.nameSpan.start), end: manifest.lines.positionAt(testCase.nameSpan.end) },
  };
  const done = (): CaseRun => {
    result.durationMs = performance.now() - started;
    return { result };
  };
  if (testCase.skip !== undefined) {
    result.status = 'skipped';
    return done();
  }
  const trace = await caseTrace(manifest, testCase, traces);
  if (typeof trace === 'string') {
    result.error = { kind: 'manifest', message: trace };
    return done();
  }
  const location = (span: Span): Location => ({ uri: trace.uri, start: trace.lines.positionAt(span.start), end: trace.lines.positionAt(span.end) });
  const traceStart = firstLineOf(trace.text, trace.found);
  result.trace = location(traceStart);
  if (trace.found.problem) {
    const where = trace.found.line === undefined ? '' : ` (line ${trace.found.line})`;
    result.error = { kind: 'manifest', message: trace.found.problem.kind === 'not-json' ? `the trace${where} is not valid JSON: ${trace.found.problem.detail}` : `the trace${where} ${noTraceMessage}` };
    return done();
  }
  const evaluation = await evaluate(trace.found.trace, testCase.params);
  if (evaluation.notLoaded) return { notLoaded: evaluation.notLoaded };
  const rulesName = fileNameOfUri(rules.uri);
  if (evaluation.failure) {
    const at = evaluation.failure.start || evaluation.failure.end ? `${rulesName}:${ruleLine(rules, evaluation.failure.start)}: ` : '';
    result.error = { kind: 'evaluation', message: `${at}${evaluation.failure.message}` };
    return done();
  }
  for (const notice of evaluation.notices) {
    const text = `${rulesName}:${ruleLine(rules, notice.start)}: ${notice.message}`;
    if (notice.kind === 'not-evaluated') result.notes.push(text);
    else result.error ??= { kind: 'evaluation', message: text };
  }
  if (result.error) return done();
  const placer = new ErrorPlacer(trace.text, trace.found);
  for (const error of evaluation.errors) {
    const ranges = error.placeRanges;
    const first = ranges.length > 0 ? /^messages\.(\d+)/.exec(ranges[0]) : null;
    result.found.push({
      message: error.message ?? String(error.args[0] ?? error.key),
      ruleIndex: error.ruleIndex,
      rule: ruleInfos[error.ruleIndex]?.line ?? ruleLine(rules, error.raiseStart),
      ...(first ? { at: Number(first[1]) } : {}),
      ranges,
      bindings: error.bindings.map((b) => ({ ...b, location: location(placer.addressSpan(b.address)) })),
      location: location(placer.place({ placeRanges: () => ranges }, traceStart)),
    });
  }
  result.fired = [...new Set(result.found.map((v) => v.ruleIndex))].sort((a, b) => a - b);
  const pairs = matchExpectations(testCase.expect, result.found);
  const matched = new Set(pairs.filter((v) => v >= 0));
  pairs.forEach((violation, expectation) => {
    if (violation >= 0) return;
    const wanted = testCase.expect[expectation];
    const at = wanted.at;
    const span = at !== undefined && at < eventCount(trace.found.trace) ? placer.addressSpan(`messages.${at}`) : traceStart;
    const nearMiss = result.found.findIndex((v, i) => !matched.has(i) && satisfies({ ...wanted, at: undefined, rule: undefined }, v));
    result.missing.push({ expectation, location: location(span), ...(nearMiss >= 0 ? { nearMiss } : {}) });
  });
  if (!testCase.allowOthers) result.unexpected = result.found.flatMap((_, i) => (matched.has(i) ? [] : [i]));
  result.status = result.missing.length === 0 && result.unexpected.length === 0 ? 'passed' : 'failed';
  return done();
}

function eventCount(trace: unknown): number {
  return Array.isArray(trace) ? trace.length : 0;
}

function ruleLine(rules: RuleModel, offset: number): number {
  return rules.lines.positionAt(offset).line + 1;
}
