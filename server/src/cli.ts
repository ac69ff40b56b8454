import { stat } from 'node:fs/promises';
import { checkFile, checkStandardInput, expandArguments, type CheckOptions, type FileReport } from './cli/check';
import { ProgressLine } from './cli/progress';
import { removeTemporariesOnInterrupt } from './cli/replaceFile';
import { defaultJobs, readJobs, readShard, shardTakes, type Shard } from './cli/runOptions';
import { escapeForTerminal, escapeJsonForTerminal } from './cli/escape';
import { bytesPerMB } from './disk/files';
import { evalUsage, runEval } from './cli/eval';
import { runCompare } from './cli/compare';
import { diffUsage, runDiff } from './cli/diff';
import { runTest, testUsage } from './cli/test';
import { convertUsage, runConvert } from './cli/convert';
import { ExitCode, exitCodeHelp, exitCodeOf } from './cli/exitCodes';
import { version } from '../../package.json';
import { FolderPythonModules } from './disk/pythonModules';
import { defaultServerSettings } from './settings';
import { defaultMaxLines } from './jsonl/model';
import { closestNames } from './common/editDistance';

const usage = `Usage: agent-traces check [options] <files, folders or globs...>
       agent-traces check [options] - [--stdin-name NAME] < file

Checks agent trace files and guardrail rule files (.gr) with the same checks as the editor: Invariant traces
(.trace.json), datasets (.trace.jsonl, .jsonl), agentguard logs, Claude Code sessions and Codex rollouts (.jsonl),
Anthropic Messages and OpenAI Responses conversations (.json), Inspect AI logs (.json, .eval) and OpenTelemetry
GenAI spans (OTLP JSON lines, .jsonl or .json, and any-agent's {"spans": [...]} .json), each recognised by its
content whatever its name. Folders are searched for those kinds of files (a .json file only when its start says
it is one of them); symbolic links found there are not followed, and are listed.
An Inspect AI .eval archive is checked as the JSON log it holds (read-only): its problems are at the line and
column of that log as the editor shows the archive, followed by the sample and JSON path they are in.

Options:
  --max-problems N   report at most N problems per file (default 1000)
  --max-file-size MB do not read files larger than this (default 100); they are reported as not checked. A
                     dataset (JSON Lines of traces) is read as a stream whatever its size, its lines up to this
  --max-indexes N    indexes of a streamed dataset remembered for the duplicate-index check (default 250000, as
                     the editor reads at most agentTraces.jsonl.maxLines lines); past them, an information
                     jsonl/too-many-indexes says from which line duplicates are found only between nearby lines
  --python-path DIR  a folder searched for the Python modules rule files import (repeatable; as the setting
                     agentTraces.guardrails.pythonPaths)
  --fix              apply every fix that needs no choice (the editor's "fix all") and print what changed;
                     files are written only when that changed them, never when a syntax error remains,
                     only the bytes fixed change, and a file is replaced whole (not written in place) only
                     if it has not changed since it was read; a named symbolic link is fixed in the file it
                     points to only when that file is inside the current folder
  -                  check standard input as well, as a file named by --stdin-name (default
                     stdin.trace.json: a trace), which decides its language; it is never fixed
  --stdin-name NAME  the name standard input is checked and reported under
  --json             print the results as JSON instead of lines (one array, written as the files are checked)
  --json-lines       print one JSON object per file, on its own line, as each is checked
  --jobs N           read the lines of a dataset on N worker threads (default: the number of cores); the output
                     is the same for any N
  --shard I/N        check share I of N (1-based): the files go round the shards in order, and the lines of a
                     dataset too (line L to shard (L-1) mod N + 1); the N shards together check every input once
  -q, --quiet        print errors only
  -h, --help         show this help
  -v, --version      show the version

Errors are findings; warnings, infos and hints are printed but are not. A name or glob that matches nothing,
a file or folder that cannot be read, and a file whose fixes --fix could not write, is an input not read.

${exitCodeHelp}

Also: agent-traces eval <rules.gr> <traces...> runs guardrail rules on traces (agent-traces eval --help);
      agent-traces test [manifests or folders] runs the tests of rule files (agent-traces test --help);
      agent-traces diff <left> <right> compares two runs step by step (agent-traces diff --help);
      agent-traces convert <file> writes a session, rollout or conversation as an Invariant trace (agent-traces convert --help).`;

interface Options {
  patterns: string[];
  maxProblems: number;
  maxFileSizeMB: number;
  pythonPaths: string[];
  json: boolean;
  quiet: boolean;
  fix: boolean;
  stdin: boolean;
  stdinName?: string;
  jsonLines: boolean;
  shard?: Shard;
  maxIndexes: number;
  jobs: number;
}

function parseArguments(args: string[]): Options | string {
  const options: Options = { patterns: [], maxProblems: 1000, maxFileSizeMB: 100, pythonPaths: [], json: false, quiet: false, fix: false, stdin: false, jsonLines: false, maxIndexes: defaultMaxLines, jobs: defaultJobs };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--max-problems') {
      const value = Number(args[++i]);
      if (!Number.isInteger(value) || value < 1) return '--max-problems takes a whole number of at least 1';
      options.maxProblems = value;
    } else if (arg === '--max-indexes') {
      const value = Number(args[++i]);
      if (!Number.isInteger(value) || value < 1) return '--max-indexes takes a whole number of at least 1';
      options.maxIndexes = value;
    } else if (arg === '--max-file-size') {
      const value = Number(args[++i]);
      if (!Number.isFinite(value) || value <= 0) return '--max-file-size takes a number of megabytes above 0';
      options.maxFileSizeMB = value;
    } else if (arg === '--python-path') {
      const folder = args[++i];
      if (!folder) return '--python-path takes a folder';
      options.pythonPaths.push(folder);
    } else if (arg === '--stdin-name') {
      const name = args[++i];
      if (!name) return '--stdin-name takes a file name';
      options.stdinName = name;
    } else if (arg === '-') options.stdin = true;
    else if (arg === '--shard') {
      const shard = readShard(args[++i]);
      if (typeof shard === 'string') return shard;
      options.shard = shard;
    } else if (arg === '--jobs') {
      const jobs = readJobs(args[++i]);
      if (typeof jobs === 'string') return jobs;
      options.jobs = jobs;
    } else if (arg === '--json') options.json = true;
    else if (arg === '--json-lines') options.jsonLines = true;
    else if (arg === '--fix') options.fix = true;
    else if (arg === '-q' || arg === '--quiet') options.quiet = true;
    else if (arg.startsWith('-')) return `unknown option ${arg}`;
    else options.patterns.push(arg);
  }
  if (options.patterns.length === 0 && !options.stdin) return 'name at least one file, folder or glob, or - for standard input';
  if (options.stdinName !== undefined && !options.stdin) return '--stdin-name names standard input: add - to check it';
  if (options.stdin && options.fix) return '--fix writes files: it cannot fix standard input';
  if (options.json && options.jsonLines) return '--json and --json-lines are two forms of the same output: choose one';
  return options;
}

function printLines(reports: FileReport[], quiet: boolean): void {
  for (const report of reports) {
    const path = escapeForTerminal(report.path);
    if (report.failure) console.log(`${path}: error: ${escapeForTerminal(report.failure)}`);
    if (report.skipped && !quiet) console.log(`${path}: skipped: ${escapeForTerminal(report.skipped)}`);
    if (report.notWritten) console.log(`${path}: error: fixes not written: ${escapeForTerminal(report.notWritten)}`);
    for (const fix of report.fixed ?? []) {
      console.log(`${path}:${fix.line}:${fix.column} fixed ${escapeForTerminal(fix.code)}: ${escapeForTerminal(fix.title)}`);
    }
    if (report.writtenTo) console.log(`${path}: the fixes were written to the file the link points to, ${escapeForTerminal(report.writtenTo)}`);
    if (report.notFixed) console.log(`${path}: ${escapeForTerminal(report.notFixed)}`);
    for (const { line, column, problem, where } of report.problems) {
      if (quiet && problem.severity !== 'error') continue;
      const place = where ? ` (${escapeForTerminal(where)})` : '';
      console.log(`${path}:${line}:${column} ${problem.severity} ${escapeForTerminal(problem.code)} ${escapeForTerminal(problem.message)}${place}`);
    }
  }
}

/** What `agent-traces` alone, `--help` and an unknown command print: the commands, and the exit codes they share. */
const overview = `Usage: agent-traces <command> [options]

Commands:
  check <files, folders or globs...>  checks trace and rule files with the same checks as the editor
  eval <rules.gr> <traces...>         runs guardrail rules on traces with the official analyzer's semantics
  test [manifests...]                 runs the tests of guardrail rule files (X.tests.json beside X.gr)
  diff <left> <right>                 compares two runs step by step
  convert <file> [--out FILE]         writes a session, rollout, conversation, Inspect log or file of spans as an
                                      Invariant trace (a test fixture)

Traces: Invariant traces and datasets, agentguard logs, Claude Code sessions, Codex rollouts, Anthropic Messages
and OpenAI Responses conversations, Inspect AI logs (.json, .eval) and OpenTelemetry GenAI spans, recognised by
their content.

agent-traces <command> --help shows a command's options; agent-traces --version (or -v) its version.

${exitCodeHelp}`;

const commands = ['check', 'eval', 'test', 'diff', 'convert'];

export async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  // Asked for anywhere, as each command's help lists it.
  if (args.includes('-v') || args.includes('--version')) {
    console.log(version);
    return ExitCode.clean;
  }
  if (!command) {
    console.error(overview);
    return ExitCode.usage;
  }
  if (command === '-h' || command === '--help') {
    console.log(overview);
    return ExitCode.clean;
  }
  if (command === 'eval') {
    if (rest.includes('-h') || rest.includes('--help')) {
      console.log(evalUsage);
      return ExitCode.clean;
    }
    return rest.includes('--compare') ? runCompare(rest, evalUsage) : runEval(rest);
  }
  if (command === 'test') {
    if (rest.includes('-h') || rest.includes('--help')) {
      console.log(testUsage);
      return ExitCode.clean;
    }
    return runTest(rest);
  }
  if (command === 'convert') {
    if (rest.includes('-h') || rest.includes('--help')) {
      console.log(convertUsage);
      return ExitCode.clean;
    }
    return runConvert(rest);
  }
  if (command === 'diff') {
    if (rest.includes('-h') || rest.includes('--help')) {
      console.log(diffUsage);
      return ExitCode.clean;
    }
    return runDiff(rest);
  }
  if (command !== 'check') {
    const close = closestNames(command, commands);
    const hint = close.length > 0 ? `; did you mean ${close.map((c) => `'${c}'`).join(' or ')}?` : '';
    console.error(`agent-traces: unknown command '${escapeForTerminal(command)}'${hint}\n\n${overview}`);
    return ExitCode.usage;
  }
  if (rest.includes('-h') || rest.includes('--help')) {
    console.log(usage);
    return ExitCode.clean;
  }
  const options = parseArguments(rest);
  if (typeof options === 'string') {
    console.error(`agent-traces: ${options}\n\n${usage}`);
    return ExitCode.usage;
  }
  const cwd = process.cwd();
  if (options.fix) removeTemporariesOnInterrupt();
  const { files, unmatched, errors: inputErrors, skippedLinks, shown } = await expandArguments(options.patterns, cwd);
  const pythonModules = new FolderPythonModules(options.pythonPaths, [cwd], defaultServerSettings.maxPythonFileSize);
  for (const pattern of unmatched) console.error(`agent-traces: nothing to check matches ${escapeForTerminal(pattern)}`);
  const output = new CheckOutput(options.json ? 'json' : options.jsonLines ? 'json-lines' : 'lines', options.quiet);
  // Inputs go round the shards in order (a dataset's lines too); a shard reports only what it takes.
  let position = 0;
  const takes = () => shardTakes(options.shard, position++);
  for (const error of inputErrors) if (takes()) output.file({ path: error.path, problems: [], failure: error.reason });
  for (const link of skippedLinks) if (takes()) output.file({ path: link.path, problems: [], skipped: link.reason });
  const progress = new ProgressLine('agent-traces check');
  let bytesBefore = 0;
  const checkOptions = (): CheckOptions => ({
    maxProblems: options.maxProblems, maxBytes: options.maxFileSizeMB * bytesPerMB, maxIndexes: options.maxIndexes, pythonModules, fix: options.fix, cwd,
    jobs: options.jobs, readsWhole: takes(), keepsLine: options.shard && ((line) => shardTakes(options.shard, line - 1)),
    onProgress: (bytes) => progress.update({ bytes: bytesBefore + bytes, done: output.files, doneWord: 'files', found: output.errors, foundWord: 'errors' }),
  });
  const report = (checked: FileReport | undefined) => {
    if (checked) output.file(checked);
  };
  try {
    if (options.stdin) report(await checkStandardInput(options.stdinName ?? 'stdin.trace.json', checkOptions(), options.stdinName ?? '<stdin>'));
    for (const file of files) {
      report(await checkFile(file, checkOptions(), shown(file)));
      bytesBefore += await fileSize(file);
    }
  } finally {
    progress.end();
  }
  output.end();
  return exitCodeOf({ findings: output.errors > 0, incomplete: output.notChecked > 0 || output.notWritten > 0 || unmatched.length > 0 });
}

async function fileSize(path: string): Promise<number> {
  return (await stat(path).catch(() => undefined))?.size ?? 0;
}

/**
 * What check prints, file by file as each is checked: lines (then a summary), one JSON array written as it grows
 * (--json, the same text as printing the whole array at the end), or one JSON object per line (--json-lines).
 */
class CheckOutput {
  files = 0;
  errors = 0;
  notChecked = 0;
  notWritten = 0;
  private skipped = 0;
  private readonly counts = { error: 0, warning: 0, information: 0, hint: 0 };

  constructor(private readonly form: 'lines' | 'json' | 'json-lines', private readonly quiet: boolean) {}

  file(report: FileReport): void {
    this.files++;
    if (report.failure) this.notChecked++;
    if (report.notWritten) this.notWritten++;
    if (report.skipped) this.skipped++;
    for (const { problem } of report.problems) this.counts[problem.severity]++;
    this.errors = this.counts.error;
    if (this.form === 'lines') {
      printLines([report], this.quiet);
      return;
    }
    const entry = {
      path: report.path,
      failure: report.failure,
      skipped: report.skipped,
      fixed: report.fixed,
      notFixed: report.notFixed,
      notWritten: report.notWritten,
      writtenTo: report.writtenTo,
      problems: report.problems.map(({ line, column, problem, where }) => ({ line, column, severity: problem.severity, code: problem.code, message: problem.message, ...(where ? { where } : {}) })),
    };
    if (this.form === 'json-lines') process.stdout.write(`${escapeJsonForTerminal(JSON.stringify(entry))}\n`);
    else process.stdout.write(`${this.files === 1 ? '[\n' : ',\n'}  ${escapeJsonForTerminal(JSON.stringify(entry, null, 2)).replace(/\n/g, '\n  ')}`);
  }

  end(): void {
    if (this.form === 'json') process.stdout.write(this.files === 0 ? '[]\n' : '\n]\n');
    if (this.form !== 'lines') return;
    const checked = this.files - this.notChecked - this.skipped;
    const fileWord = checked === 1 ? 'file' : 'files';
    const failed = this.notChecked > 0 ? `, ${this.notChecked} could not be checked` : '';
    const unfixed = this.notWritten > 0 ? `, ${this.notWritten} not fixed` : '';
    const links = this.skipped > 0 ? `, ${this.skipped} symbolic ${this.skipped === 1 ? 'link' : 'links'} skipped` : '';
    const { error, warning, information, hint } = this.counts;
    console.log(`${checked} ${fileWord} checked${failed}${unfixed}${links}: ${error} errors, ${warning} warnings, ${information} infos, ${hint} hints`);
  }
}

// exitCode rather than exit(): a large report piped to another program must be flushed in full.
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    console.error(`agent-traces: ${escapeForTerminal(error instanceof Error ? error.message : String(error))}`);
    // The tool itself failed: no result can be trusted, as after bad usage.
    process.exitCode = ExitCode.usage;
  },
);
