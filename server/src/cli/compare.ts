import { pathToFileURL } from 'node:url';
import { LineIndex } from '../common/lineIndex';
import { guardrailService } from '../guardrail';
import type { RuleModel } from '../guardrail/model';
import { loadFailure } from '../guardrail/evaluate';
import { bytesPerMB, readTextFile } from '../disk/files';
import { parseRevisionPath, readAtRevision } from '../disk/git';
import { layoutName, notTracesReason, traceLayoutOfFile } from '../traceFormats';
import { addComparison, type Comparison, type ComparedViolation, type TraceFlip } from '../rulesOnTraces/compare';
import { EvaluationWorkers } from '../rulesOnTraces/evaluationWorkers';
import { nodeWorkerLauncher } from '../rulesOnTraces/workerLauncher';
import type { RuleSource } from '../rulesOnTraces/workerProtocol';
import { expandArguments } from './check';
import { escapeForTerminal, escapeJsonForTerminal } from './escape';
import { ExitCode, exitCodeOf } from './exitCodes';
import { defaultTimeoutMs, readBudget, readParameter, readTimeout } from './ruleOptions';

/** `agent-traces eval --compare OLD.gr NEW.gr <traces...>`: what a change of a rule file flips (see rulesOnTraces/compare.ts). */

interface CompareOptions {
  oldRules: string;
  newRules: string;
  patterns: string[];
  parameters: Record<string, unknown>;
  budget?: number;
  timeoutMs: number;
  json: boolean;
}

/** Rule and trace files are read up to this size, as `agent-traces check` reads by default. */
const maxFileBytes = 100 * bytesPerMB;

export function parseCompareArguments(args: string[]): CompareOptions | string {
  const positional: string[] = [];
  const parameters: Record<string, unknown> = {};
  let json = false;
  let budget: number | undefined;
  let timeoutMs = defaultTimeoutMs;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--compare') continue;
    if (arg === '--param') {
      const error = readParameter(args[++i], parameters);
      if (error) return error;
    } else if (arg === '--budget') {
      const value = readBudget(args[++i]);
      if (typeof value === 'string') return value;
      budget = value;
    } else if (arg === '--timeout') {
      const value = readTimeout(args[++i]);
      if (typeof value === 'string') return value;
      timeoutMs = value;
    } else if (arg === '--json') json = true;
    else if (arg.startsWith('-')) return `unknown option ${arg}`;
    else positional.push(arg);
  }
  if (positional.length < 3) return '--compare takes the old rule file, the new one, and at least one trace file, folder or glob';
  return { oldRules: positional[0], newRules: positional[1], patterns: positional.slice(2), parameters, budget, timeoutMs, json };
}

/** A rule file from disk or from a git revision (`git:REV:path`), parsed; or why it cannot be used (exit 2). */
async function loadRules(spec: string, cwd: string): Promise<{ model: RuleModel; name: string } | string> {
  const atRevision = parseRevisionPath(spec);
  const read = atRevision ? await readAtRevision(atRevision.revision, atRevision.path, cwd, maxFileBytes) : await readTextFile(spec, { maxBytes: maxFileBytes });
  if (!read.ok) return `${spec}: ${read.reason}`;
  const name = spec;
  const uri = atRevision ? `git:${encodeURIComponent(atRevision.revision)}/${atRevision.path}` : pathToFileURL(spec).toString();
  const model = guardrailService.parse({ uri, version: 0, text: read.text });
  const failure = loadFailure(model);
  if (failure) return `${name}:${model.lines.positionAt(failure.start).line + 1}: ${failure.message}`;
  return { model, name };
}

interface Position {
  line: number;
  column: number;
}

interface FileFlip {
  file: string;
  flip: TraceFlip;
  position: (offset: number) => Position;
}

export async function runCompare(args: string[], usage: string): Promise<number> {
  const options = parseCompareArguments(args);
  if (typeof options === 'string') {
    console.error(`agent-traces eval: ${options}\n\n${usage}`);
    return ExitCode.usage;
  }
  const cwd = process.cwd();
  const oldRules = await loadRules(options.oldRules, cwd);
  const newRules = await loadRules(options.newRules, cwd);
  for (const rules of [oldRules, newRules]) {
    if (typeof rules === 'string') {
      console.error(`agent-traces eval: ${escapeForTerminal(rules)}; nothing was compared`);
      return ExitCode.usage;
    }
  }
  const [before, after] = [oldRules, newRules] as { model: RuleModel; name: string }[];
  const { files, unmatched, errors, shown: shownNamed } = await expandArguments(options.patterns, cwd);
  for (const pattern of unmatched) console.error(`agent-traces eval: no trace matches ${escapeForTerminal(pattern)}`);
  const failures: { file: string; line?: number; reason: string }[] = errors.map((e) => ({ file: e.path, reason: e.reason }));
  const flips: FileFlip[] = [];
  let traces = 0;
  const traceFiles = files.filter((f) => !f.toLowerCase().endsWith('.gr'));
  // Both versions run on a worker thread, which is ended and replaced when a rule runs past the time limit.
  const workers = new EvaluationWorkers(nodeWorkerLauncher());
  const sources: [RuleSource, RuleSource] = [before, after].map((rules) => ({ uri: rules.model.uri, text: rules.model.text })) as [RuleSource, RuleSource];
  try {
  for (const file of traceFiles) {
    const shown = shownNamed(file);
    const read = await readTextFile(file, { maxBytes: maxFileBytes });
    if (!read.ok) {
      failures.push({ file: shown, reason: read.reason });
      continue;
    }
    const layout = traceLayoutOfFile(file, read.text);
    if (!layout) {
      failures.push({ file: shown, reason: notTracesReason });
      continue;
    }
    const lines = new LineIndex(read.text);
    const position = (offset: number): Position => {
      const p = lines.positionAt(offset);
      return { line: p.line + 1, column: p.character + 1 };
    };
    const comparison: Comparison = { traces: 0, flips: [], unreadable: [] };
    const job = { kind: 'compare' as const, rules: sources, text: read.text, layout: layoutName(layout), path: file, options: { parameters: options.parameters, budget: options.budget, timeLimitMs: options.timeoutMs } };
    try {
      await workers.run(job, (part) => addComparison(comparison, part));
    } catch (error) {
      failures.push({ file: shown, reason: `not evaluated: ${error instanceof Error ? error.message : String(error)}` });
      continue;
    }
    traces += comparison.traces;
    for (const u of comparison.unreadable) failures.push({ file: shown, ...(u.line !== undefined ? { line: u.line } : {}), reason: u.reason });
    for (const flip of comparison.flips) flips.push({ file: shown, flip, position });
  }
  } finally {
    workers.close();
  }
  const added = flips.reduce((n, f) => n + f.flip.added.length, 0);
  const removed = flips.reduce((n, f) => n + f.flip.removed.length, 0);
  const changed = flips.filter((f) => f.flip.added.length > 0 || f.flip.removed.length > 0).length;
  const notEvaluated = flips.filter((f) => f.flip.oldFailure || f.flip.newFailure).length + failures.length;
  if (options.json) {
    const violation = (f: FileFlip) => (v: ComparedViolation) => ({
      message: v.message, rule: v.rule, range: { start: f.position(v.span.start), end: f.position(v.span.end) }, ranges: v.ranges,
      bindings: Object.fromEntries(v.bindings.map((b) => [b.variable, b.address])),
    });
    console.log(escapeJsonForTerminal(JSON.stringify({
      old: before.name,
      new: after.name,
      traces,
      flips: flips.map((f) => ({
        file: f.file, ...(f.flip.line !== undefined ? { line: f.flip.line } : {}),
        added: f.flip.added.map(violation(f)), removed: f.flip.removed.map(violation(f)),
        ...(f.flip.oldFailure ? { oldError: f.flip.oldFailure } : {}), ...(f.flip.newFailure ? { newError: f.flip.newFailure } : {}),
      })),
      failed: failures,
    }, null, 2)));
  } else {
    for (const f of flips) {
      const where = (v: ComparedViolation) => {
        const p = f.position(v.span.start);
        return `${escapeForTerminal(f.file)}:${p.line}:${p.column}`;
      };
      for (const v of f.flip.removed) console.log(`${where(v)} removed ${escapeForTerminal(v.message)} (${escapeForTerminal(before.name)}:${v.rule})`);
      for (const v of f.flip.added) console.log(`${where(v)} added ${escapeForTerminal(v.message)} (${escapeForTerminal(after.name)}:${v.rule})`);
      const at = `${escapeForTerminal(f.file)}${f.flip.line !== undefined ? `:${f.flip.line}` : ''}`;
      if (f.flip.oldFailure) console.log(`${at}: error: the old rules could not be evaluated: ${escapeForTerminal(f.flip.oldFailure)}`);
      if (f.flip.newFailure) console.log(`${at}: error: the new rules could not be evaluated: ${escapeForTerminal(f.flip.newFailure)}`);
    }
    for (const failure of failures) console.log(`${escapeForTerminal(failure.file)}${failure.line !== undefined ? `:${failure.line}` : ''}: error: ${escapeForTerminal(failure.reason)}`);
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    console.log(`${changed} of ${plural(traces, 'trace')} in ${plural(traceFiles.length, 'file')} flip: ${plural(added, 'violation')} added, ${removed} removed${notEvaluated > 0 ? `, ${notEvaluated} not evaluated` : ''}`);
  }
  return exitCodeOf({ findings: changed > 0, incomplete: notEvaluated > 0 || unmatched.length > 0 });
}
