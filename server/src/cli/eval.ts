import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { guardrailService } from '../guardrail';
import { loadFailure } from '../guardrail/evaluate';
import { expandArguments } from './check';
import { escapeForTerminal, escapeJsonForTerminal } from './escape';
import { ExitCode, exitCodeHelp, exitCodeOf } from './exitCodes';
import { bytesPerMB, formatMB, readTextFile } from '../disk/files';
import { isEmptyJsonLines, layoutName, notTracesReason, traceLayoutOfFile } from '../traceFormats';
import { defaultTimeoutMs, readBudget, readParameter, readTimeout } from './ruleOptions';
import { OrderedEvaluationPool } from '../rulesOnTraces/evaluationPool';
import { openFile, openStandardInput, type InputOptions, type OpenedInput } from './streamedInputs';
import { defaultJobs, defaultMaxFileSizeMB, readJobs, readMaxFileSize, readShard, shardTakes, type Shard } from './runOptions';
import { ProgressLine } from './progress';
import type { Position, ReportedError, TraceReport as EvaluatedTrace } from '../rulesOnTraces/traceReports';
import { nodeWorkerLauncher } from '../rulesOnTraces/workerLauncher';
import { checkWorkerHeap } from './chunkReaders';

export const evalUsage = `Usage: agent-traces eval <rules.gr> <files, folders or globs...> [options]
       agent-traces eval <rules.gr> - [--stdin-name NAME] < trace
       agent-traces eval --compare <old.gr> <new.gr> <files, folders or globs...> [options]

Runs the guardrail rules on traces with the official analyzer's semantics: .trace.json files, each line of
.trace.jsonl / .jsonl datasets, and the files agent-traces convert reads, converted to events as it converts them
(Claude Code sessions and Codex rollouts, Anthropic Messages and OpenAI Responses conversations, Inspect AI logs,
.json or .eval, one trace per sample, and OpenTelemetry GenAI spans, one trace per trace id), named or found in
folders. It prints one line per violation at the exact characters it marks (in a converted file, in the file's
own characters), followed by the places of the other elements the violation binds ("with 18:3, 30:3"), as the
analyzer's ranges give them.

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
  --json-lines       print the same entries one JSON object per line, as each trace is evaluated (for consumers
                     that stream)
  --jobs N           evaluate on N worker threads (default: the number of cores); the output is the same for any N
  --shard I/N        evaluate share I of N (1-based): the inputs read whole go round the shards in order, the lines
                     of a dataset too (line L to shard (L-1) mod N + 1); the N shards' outputs together are the
                     output of one run
  --no-prefilter     evaluate every rule on every trace, even a rule that needs a text the trace does not hold
                     (by default such a rule is not run there: it cannot find anything, and the output is the same
                     but for a work-budget or time-limit notice the rule would have reached on that trace)
  --max-file-size MB read files whole only up to this size (default 100), and dataset lines up to it; a dataset
                     (JSON Lines of traces) is read as a stream whatever its size
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
  jsonLines: boolean;
  jobs: number;
  shard?: Shard;
  maxFileBytes: number;
  prefilter: boolean;
}

function parseEvalArguments(args: string[]): EvalOptions | string {
  const positional: string[] = [];
  const parameters: Record<string, unknown> = {};
  let json = false;
  let unique = false;
  let stdinName: string | undefined;
  let budget: number | undefined;
  let timeoutMs = defaultTimeoutMs;
  let jsonLines = false;
  let jobs = defaultJobs;
  let shard: Shard | undefined;
  let maxFileBytes = defaultMaxFileSizeMB * bytesPerMB;
  let prefilter = true;
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
    } else if (arg === '--jobs') {
      const value = readJobs(args[++i]);
      if (typeof value === 'string') return value;
      jobs = value;
    } else if (arg === '--shard') {
      const value = readShard(args[++i]);
      if (typeof value === 'string') return value;
      shard = value;
    } else if (arg === '--max-file-size') {
      const value = readMaxFileSize(args[++i]);
      if (typeof value === 'string') return value;
      maxFileBytes = value;
    } else if (arg === '--no-prefilter') prefilter = false;
    else if (arg === '--json') json = true;
    else if (arg === '--json-lines') jsonLines = true;
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
  if (json && jsonLines) return '--json and --json-lines are two forms of the same output: choose one';
  return { rules: positional[0], patterns, parameters, budget, timeoutMs, json, unique, stdin, stdinName, jsonLines, jobs, shard, maxFileBytes, prefilter };
}


/** As check's workers: 4 MB, which took 50-60 MB off the peak of eval over a 1 GB dataset without costing time. */
const streamingYoungGenerationMb = checkWorkerHeap.maxYoungGenerationSizeMb;

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
  const rulesRead = await readTextFile(options.rules, { maxBytes: options.maxFileBytes, setting: '--max-file-size' });
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
  const inputs: { path: string; shown: string; open: (options: InputOptions) => Promise<OpenedInput> }[] = [];
  if (options.stdin) {
    const path = resolve(cwd, options.stdinName ?? 'stdin.trace.json');
    inputs.push({ path, shown: options.stdinName ?? '<stdin>', open: (inputOptions) => openStandardInput(inputOptions) });
  }
  for (const file of files.filter((f) => !f.toLowerCase().endsWith('.gr'))) {
    inputs.push({ path: file, shown: shownPath(file), open: (inputOptions) => openFile(file, inputOptions) });
  }
  if (inputs.length === 0 && inputErrors.length === 0) return ExitCode.incomplete;

  const output = new EvalOutput(options.json ? 'json' : options.jsonLines ? 'json-lines' : 'lines', options.unique);
  // Whatever was named but cannot be read (a FIFO, an unreadable folder) is reported, never silently left out.
  inputErrors.forEach((error, index) => {
    if (shardTakes(options.shard, index)) output.trace({ file: error.path, errors: [], error: error.reason, notices: [] });
  });
  // Rules run on worker threads, each ended and replaced when a rule runs past the time limit.
  const pool = new OrderedEvaluationPool(nodeWorkerLauncher({ youngGenerationMb: streamingYoungGenerationMb }), options.jobs);
  const rulesSource = { uri: rules.uri, text: rulesText };
  const progress = new ProgressLine('agent-traces eval');
  let bytesBefore = 0;
  try {
    for (const [index, { path: file, shown, open }] of inputs.entries()) {
      // A dataset is shared out line by line between the shards; any other input goes whole to one of them.
      const takesWhole = shardTakes(options.shard, inputErrors.length + index);
      const opened = await open({
        maxBytes: options.maxFileBytes,
        streams: (head) => traceLayoutOfFile(file, head) === 'dataset',
        readsWhole: takesWhole,
        keepsLine: options.shard && ((line) => shardTakes(options.shard, line - 1)),
      });
      const jobOptions = { rulesPath, shownPath: shown, parameters: options.parameters, budget: options.budget, timeLimitMs: options.timeoutMs, ranges: options.json || options.jsonLines, prefilter: options.prefilter };
      const evaluate = (text: string | Uint8Array, layout: string, firstLine: number, overlong: number[]) => pool.submit(
        { kind: 'reports', rules: [rulesSource], text, layout, path: file, options: jobOptions },
        (parts, failure) => {
          const found = parts.flat().map((trace) => ({ file: shown, ...shiftLines(trace, firstLine - 1) }));
          const tooLong = overlong.map((line) => ({ file: shown, line, errors: [], error: `not read: the line is over the ${formatMB(options.maxFileBytes)} limit (setting --max-file-size)`, notices: [] }));
          for (const trace of [...found, ...tooLong].sort((a, b) => (a.line ?? 0) - (b.line ?? 0))) output.trace(trace);
          if (failure) output.trace({ file: shown, ...(layout === 'dataset' ? { line: firstLine } : {}), errors: [], error: `not evaluated: ${failure.message}`, notices: [] });
          progress.update({ bytes: output.bytesDone, done: output.traces, doneWord: 'traces', found: output.violations, foundWord: 'violations' });
        },
      );
      if (!opened.ok) {
        if (takesWhole) pool.post(() => output.trace({ file: shown, errors: [], error: opened.reason, notices: [] }));
      } else if (opened.kind === 'lines') {
        for await (const chunk of opened.chunks) {
          const bytes = bytesBefore + chunk.bytesRead;
          await evaluate(chunk.bytes, 'dataset', chunk.firstLine, chunk.overlong);
          pool.post(() => (output.bytesDone = bytes));
        }
        bytesBefore += opened.size ?? 0;
      } else if (opened.kind === 'whole') {
        // As the editor decides (by name, and for a .jsonl by its first line), so that a file is read the same way here.
        const layout = traceLayoutOfFile(file, opened.text);
        if (layout) await evaluate(opened.text, layoutName(layout), 1, []);
        else if (!isEmptyJsonLines(file, opened.text)) pool.post(() => output.trace({ file: shown, errors: [], error: notTracesMessage, notices: [] }));
      }
      output.inputs++;
    }
    await pool.drain();
  } finally {
    pool.close();
    progress.end();
  }
  output.end(inputs.length);
  output.flush();
  return exitCodeOf({ findings: output.violations > 0, incomplete: output.failed > 0 || output.partial > 0 || unmatched.length > 0 });
}

/** A report whose lines are counted from a chunk's first line: the same report with the file's line numbers. */
function shiftLines(trace: EvaluatedTrace, by: number): EvaluatedTrace {
  if (by === 0) return trace;
  const shift = (p: Position): Position => ({ line: p.line + by, column: p.column });
  return {
    ...trace,
    ...(trace.line !== undefined ? { line: trace.line + by } : {}),
    errors: trace.errors.map((e) => ({
      ...e, range: { start: shift(e.range.start), end: shift(e.range.end) }, with: e.with.map(shift), bound: e.bound.map((b) => ({ ...b, at: shift(b.at) })),
    })),
  };
}

/**
 * What eval prints, trace by trace as the results come: lines (then a summary), one JSON array written as it grows
 * (--json, the same text as printing the whole array at the end), or one JSON object per line (--json-lines).
 */
class EvalOutput {
  traces = 0;
  violations = 0;
  failed = 0;
  /** A rule that was not evaluated, or stopped short (work budget, time limit), leaves a trace's verdict incomplete. */
  partial = 0;
  inputs = 0;
  bytesDone = 0;
  private readonly noticesShown = new Set<string>();
  private pending: string[] = [];

  constructor(private readonly form: 'lines' | 'json' | 'json-lines', private readonly unique: boolean) {}

  trace(r: TraceReport): void {
    this.traces++;
    this.violations += r.errors.length;
    if (r.error !== null) this.failed++;
    if (r.incomplete) this.partial++;
    if (this.form !== 'lines') {
      const { notices, errors, incomplete, ...rest } = r;
      const entry = { ...rest, errors: errors.map(({ with: _, bound: __, ...e }) => e), notices, incomplete: incomplete ?? false };
      if (this.form === 'json-lines') this.write(escapeJsonForTerminal(JSON.stringify(entry)));
      else this.write(`${this.traces === 1 ? '[\n' : ',\n'}  ${escapeJsonForTerminal(JSON.stringify(entry, null, 2)).replace(/\n/g, '\n  ')}`, '');
      return;
    }
    for (const line of violationLines(r, this.unique)) this.write(line);
    for (const n of r.notices) {
      if (this.noticesShown.has(n)) continue;
      this.noticesShown.add(n);
      this.write(escapeForTerminal(n));
    }
    if (r.error) this.write(`${escapeForTerminal(r.file)}${r.line !== undefined ? `:${r.line}` : ''}: error guardrails evaluation failed: ${escapeForTerminal(r.error)}`);
  }

  end(files: number): void {
    if (this.form === 'json') this.write(this.traces === 0 ? '[]' : '\n]');
    if (this.form !== 'lines') return;
    const notEvaluated = this.partial > 0 ? `, ${this.partial} with a rule not evaluated` : '';
    this.write(`${this.traces} trace${this.traces === 1 ? '' : 's'} in ${files} file${files === 1 ? '' : 's'} evaluated: ${this.violations} violation${this.violations === 1 ? '' : 's'}, ${this.failed} failed${notEvaluated}`);
  }

  /** What was written, to standard output at once: once per turn of the event loop, not once per line. */
  flush(): void {
    if (this.pending.length === 0) return;
    process.stdout.write(this.pending.join(''));
    this.pending = [];
  }

  private write(text: string, end = '\n'): void {
    this.pending.push(text + end);
    if (this.pending.length === 1) setImmediate(() => this.flush());
  }
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
