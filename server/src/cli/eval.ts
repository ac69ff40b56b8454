import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { guardrailService } from '../guardrail';
import { loadFailure } from '../guardrail/evaluate';
import { expandArguments, readStandardInput } from './check';
import { escapeForTerminal, escapeJsonForTerminal } from './escape';
import { ExitCode, exitCodeHelp, exitCodeOf } from './exitCodes';
import { bytesPerMB, readTextFile } from '../disk/files';
import { readInputText } from './readInput';
import { layoutName, notTracesReason, traceLayoutOfFile } from '../traceFormats';
import { defaultTimeoutMs, readBudget, readParameter, readTimeout } from './ruleOptions';
import { EvaluationWorkers } from '../rulesOnTraces/evaluationWorkers';
import type { Position, ReportedError, TraceReport as EvaluatedTrace } from '../rulesOnTraces/traceReports';
import { nodeWorkerLauncher } from '../rulesOnTraces/workerLauncher';

export const evalUsage = `Usage: agent-traces eval <rules.gr> <files, folders or globs...> [options]
       agent-traces eval <rules.gr> - [--stdin-name NAME] < trace
       agent-traces eval --compare <old.gr> <new.gr> <files, folders or globs...> [options]

Runs the guardrail rules on traces (.trace.json files, each line of .trace.jsonl / .jsonl datasets, and Claude Code
sessions, converted to events as Invariant's gateway converts them) with the official analyzer's semantics and
prints one line per violation at the exact characters it marks (in a session, in the session's own lines),
followed by the places of the other elements the violation binds ("with 18:3, 30:3"), as the analyzer's ranges
give them.

Options:
  --param key=value  a policy parameter for input.key (read as JSON when it parses, else as a string); repeatable
  --budget N         steps (rule-body evaluations and comprehension iterations) allowed per rule and trace
                     (default 1000000)
  --timeout MS       milliseconds a rule may run on one trace before it is stopped (default 5000)
  -                  evaluate standard input as well, as a file named by --stdin-name (default
                     stdin.trace.json: a trace; a .jsonl name reads it as a dataset)
  --stdin-name NAME  the name standard input is read and reported under
  --unique           print each place once, with the places of every violation found there
  --json             print one entry per trace: file, line, errors (message, args, kwargs, key, ranges, bindings,
                     range), error
  --compare          evaluate two versions of a rule file on the same traces and list only the traces (and
                     dataset lines) whose violations differ: each violation added or removed, at its place; the
                     old one may be git:REV:path, the file at a git revision (as git show REV:path reads it,
                     ./ for a path relative to the current folder). A flip is a finding; --param, --budget,
                     --timeout and --json apply to both versions.
  -h, --help         show this help

Violations are findings. A trace file that cannot be read, a value that holds no trace, and a trace on which a
rule fails, runs out of memory, is not evaluated or is stopped at its time limit or work budget are inputs not
evaluated; a rule file with syntax errors, or that the analyzer would not load, is
reported before any trace is read (exit 2).

${exitCodeHelp}`;

interface EvalOptions {
  rules: string;
  patterns: string[];
  parameters: Record<string, unknown>;
  budget?: number;
  timeoutMs: number;
  json: boolean;
  unique: boolean;
  stdin: boolean;
  stdinName?: string;
}

function parseEvalArguments(args: string[]): EvalOptions | string {
  const positional: string[] = [];
  const parameters: Record<string, unknown> = {};
  let json = false;
  let unique = false;
  let stdinName: string | undefined;
  let budget: number | undefined;
  let timeoutMs = defaultTimeoutMs;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
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
    else if (arg === '--unique') unique = true;
    else if (arg === '--stdin-name') {
      stdinName = args[++i];
      if (!stdinName) return '--stdin-name takes a file name';
    } else if (arg === '-') positional.push(arg);
    else if (arg.startsWith('-')) return `unknown option ${arg}`;
    else positional.push(arg);
  }
  if (positional.length < 2) return 'name a rule file and at least one trace file, folder or glob, or - for standard input';
  if (positional[0] === '-') return 'the rule file is read from a file: name it first, then the traces (- for standard input)';
  const patterns = positional.slice(1).filter((p) => p !== '-');
  const stdin = patterns.length < positional.length - 1;
  if (stdinName !== undefined && !stdin) return '--stdin-name names standard input: add - to evaluate it';
  return { rules: positional[0], patterns, parameters, budget, timeoutMs, json, unique, stdin, stdinName };
}

/** Rule and trace files are read up to this size, as `agent-traces check` reads by default. */
const maxFileBytes = 100 * bytesPerMB;

type TraceReport = { file: string } & Omit<EvaluatedTrace, 'incomplete'> & { incomplete?: boolean };

export async function runEval(args: string[]): Promise<number> {
  const options = parseEvalArguments(args);
  if (typeof options === 'string') {
    console.error(`agent-traces eval: ${options}\n\n${evalUsage}`);
    return ExitCode.usage;
  }
  const cwd = process.cwd();
  const swapped = swappedArguments(options);
  if (swapped) {
    console.error(`agent-traces eval: ${escapeForTerminal(swapped)}`);
    return ExitCode.usage;
  }
  const rulesRead = await readTextFile(options.rules, { maxBytes: maxFileBytes });
  if (!rulesRead.ok) {
    console.error(`agent-traces eval: ${escapeForTerminal(options.rules)}: ${rulesRead.reason}`);
    return ExitCode.usage;
  }
  const rulesText = rulesRead.text;
  if (!options.rules.toLowerCase().endsWith('.gr') && /^\uFEFF?\s*[[{]/.test(rulesText)) {
    console.error(`agent-traces eval: ${escapeForTerminal(options.rules)} holds JSON, not rules: name the rule file first, then the traces (agent-traces eval <rules.gr> <traces...>)`);
    return ExitCode.usage;
  }
  const rulesPath = options.rules;
  const rules = guardrailService.parse({ uri: pathToFileURL(options.rules).toString(), version: 0, text: rulesText });
  const ruleLines = rules.lines;
  const at = (offset: number): string => {
    const p = ruleLines.positionAt(offset);
    return `${rulesPath}:${p.line + 1}:${p.character + 1}`;
  };
  if (rules.syntaxProblems.length > 0) {
    for (const p of rules.syntaxProblems) console.error(escapeForTerminal(`${at(p.span.start)} error ${p.code} ${p.message}`));
    console.error(`agent-traces eval: ${escapeForTerminal(rulesPath)} has syntax errors; nothing was evaluated`);
    return ExitCode.usage;
  }
  // Decided once for the rule file: the analyzer's loader rejects it whatever the trace, so no trace is read.
  const notLoaded = loadFailure(rules);
  if (notLoaded) {
    console.error(escapeForTerminal(`${at(notLoaded.start)} error guardrails ${notLoaded.message}`));
    console.error(`agent-traces eval: ${escapeForTerminal(rulesPath)} cannot be loaded; nothing was evaluated`);
    return ExitCode.usage;
  }
  const { files, unmatched, errors: inputErrors, skippedLinks, shown: shownPath } = await expandArguments(options.patterns, cwd);
  for (const pattern of unmatched) console.error(`agent-traces eval: no trace matches ${escapeForTerminal(pattern)}`);
  for (const link of skippedLinks) console.error(`agent-traces eval: ${escapeForTerminal(link.path)}: skipped: ${link.reason}`);
  // The inputs in order: standard input first (as `check` reports it), then the files found.
  const inputs: { path: string; shown: string; read: () => Promise<{ ok: true; text: string } | { ok: false; reason: string }> }[] = [];
  if (options.stdin) {
    inputs.push({
      path: resolve(cwd, options.stdinName ?? 'stdin.trace.json'),
      shown: options.stdinName ?? '<stdin>',
      read: async () => {
        const read = await readStandardInput(maxFileBytes);
        return read.ok ? { ok: true, text: read.bytes.toString('utf8') } : read;
      },
    });
  }
  for (const file of files.filter((f) => !f.toLowerCase().endsWith('.gr'))) {
    inputs.push({ path: file, shown: shownPath(file), read: () => readInputText(file, { maxBytes: maxFileBytes }) });
  }
  if (inputs.length === 0 && inputErrors.length === 0) return ExitCode.incomplete;

  // Whatever was named but cannot be read (a FIFO, an unreadable folder) is reported, never silently left out.
  const reports: TraceReport[] = inputErrors.map((error) => ({ file: error.path, errors: [], error: error.reason, notices: [] }));
  const noticesShown = new Set<string>();
  // Rules run on a worker thread, which is ended and replaced when a rule runs past the time limit.
  const workers = new EvaluationWorkers(nodeWorkerLauncher());
  const rulesSource = { uri: rules.uri, text: rulesText };
  try {
    for (const { path: file, shown, read: readInput } of inputs) {
      const read = await readInput();
      if (!read.ok) {
        reports.push({ file: shown, errors: [], error: read.reason, notices: [] });
        continue;
      }
      // As the editor decides (by name, and for a .jsonl by its first line), so that a file is read the same way here.
      const layout = traceLayoutOfFile(file, read.text);
      if (!layout) {
        reports.push({ file: shown, errors: [], error: notTracesMessage, notices: [] });
        continue;
      }
      const jobOptions = { rulesPath, shownPath: shown, parameters: options.parameters, budget: options.budget, timeLimitMs: options.timeoutMs, ranges: options.json };
      try {
        await workers.run({ kind: 'reports', rules: [rulesSource], text: read.text, layout: layoutName(layout), path: file, options: jobOptions }, (part) => {
          for (const trace of part) reports.push({ file: shown, ...trace });
        });
      } catch (error) {
        reports.push({ file: shown, errors: [], error: `not evaluated: ${error instanceof Error ? error.message : String(error)}`, notices: [] });
      }
    }
  } finally {
    workers.close();
  }
  const violations = reports.reduce((sum, report) => sum + report.errors.length, 0);
  const failed = reports.filter((report) => report.error !== null).length;
  // A rule that was not evaluated, or stopped short (work budget, time limit), leaves a trace's verdict incomplete.
  const partial = reports.filter((report) => report.incomplete).length;

  if (options.json) {
    const entries = reports.map(({ notices, errors, incomplete, ...r }) => ({ ...r, errors: errors.map(({ with: _, bound: __, ...e }) => e), notices, incomplete: incomplete ?? false }));
    console.log(escapeJsonForTerminal(JSON.stringify(entries, null, 2)));
  } else {
    for (const r of reports) {
      for (const line of violationLines(r, options.unique)) console.log(line);
      for (const n of r.notices) {
        if (noticesShown.has(n)) continue;
        noticesShown.add(n);
        console.log(escapeForTerminal(n));
      }
      if (r.error) console.log(`${escapeForTerminal(r.file)}${r.line !== undefined ? `:${r.line}` : ''}: error guardrails evaluation failed: ${escapeForTerminal(r.error)}`);
    }
    const traces = reports.length;
    const notEvaluated = partial > 0 ? `, ${partial} with a rule not evaluated` : '';
    console.log(`${traces} trace${traces === 1 ? '' : 's'} in ${inputs.length} file${inputs.length === 1 ? '' : 's'} evaluated: ${violations} violation${violations === 1 ? '' : 's'}, ${failed} failed${notEvaluated}`);
  }
  return exitCodeOf({ findings: violations > 0, incomplete: failed > 0 || partial > 0 || unmatched.length > 0 });
}

/** Places beyond this many are counted, not listed, on a violation's line. */
const maxPlacesListed = 10;

/**
 * One line per violation: its place, its message, and the places of the other elements it binds, then a line with
 * its bindings. With `unique`, violations with the same place and message share one line, which lists the places of
 * all of them (their bindings differ: none is printed).
 */
function violationLines(report: TraceReport, unique: boolean): string[] {
  type Line = { start: Position; message: string; with: Map<string, Position>; bound?: ReportedError['bound'] };
  const groups = new Map<string, Line>();
  const lines: Line[] = [];
  for (const e of report.errors) {
    const message = e.message ?? e.key;
    const key = `${e.range.start.line}:${e.range.start.column}\u0000${message}`;
    let line = unique ? groups.get(key) : undefined;
    if (!line) {
      line = { start: e.range.start, message, with: new Map(), ...(unique ? {} : { bound: e.bound }) };
      lines.push(line);
      if (unique) groups.set(key, line);
    }
    for (const p of e.with) if (p.line !== e.range.start.line || p.column !== e.range.start.column) line.with.set(`${p.line}:${p.column}`, p);
  }
  return lines.flatMap(({ start, message, with: others, bound }) => {
    const places = [...others.values()].sort((a, b) => a.line - b.line || a.column - b.column).map((p) => `${p.line}:${p.column}`);
    const listed = places.length > maxPlacesListed ? `${places.slice(0, maxPlacesListed).join(', ')} and ${places.length - maxPlacesListed} more` : places.join(', ');
    const pairs = places.length > 0 ? ` (with ${listed})` : '';
    const line = `${escapeForTerminal(report.file)}:${start.line}:${start.column} warning guardrails ${escapeForTerminal(message)}${pairs}`;
    return bound && bound.length > 0 ? [line, `  ${boundText(report.file, bound)}`] : [line];
  });
}

/** `eval trace.json rules.gr`: the rule file named after the traces, said before anything is read. */
function swappedArguments(options: EvalOptions): string | undefined {
  if (options.rules.toLowerCase().endsWith('.gr')) return undefined;
  const rules = options.patterns.filter((p) => p.toLowerCase().endsWith('.gr'));
  if (rules.length === 0) return undefined;
  const traces = [options.rules, ...options.patterns.filter((p) => !rules.includes(p))];
  return `the rule file comes first: agent-traces eval ${rules[0]} ${traces.join(' ')}${rules.length > 1 ? ' (one rule file per run)' : ''}`;
}

/** `bound: call = messages.1.tool_calls.0 at t.json:3:7, out = messages.2 at t.json:6:5`: each variable, its element, where it starts. */
function boundText(file: string, bound: ReportedError['bound']): string {
  const at = escapeForTerminal(file);
  return `bound: ${bound.map((b) => `${escapeForTerminal(b.variable)} = ${escapeForTerminal(b.address)} at ${at}:${b.at.line}:${b.at.column}`).join(', ')}`;
}

const notTracesMessage = `not evaluated: ${notTracesReason}`;
