import { checkFile, checkStandardInput, expandArguments, type FileReport } from './cli/check';
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
import { closestNames } from './common/editDistance';

const usage = `Usage: agent-traces check [options] <files, folders or globs...>
       agent-traces check [options] - [--stdin-name NAME] < file

Checks agent trace files (.trace.json, .trace.jsonl, agentguard, dataset and Claude Code session .jsonl) and guardrail rule
files (.gr) with the same checks as the editor. Folders are searched for those kinds of files; symbolic
links found there are not followed, and are listed.
An Inspect AI .eval archive is checked as the JSON log it holds (read-only): its problems are at the line and
column of that log as the editor shows the archive, followed by the sample and JSON path they are in.

Options:
  --max-problems N   report at most N problems per file (default 1000)
  --max-file-size MB do not read files larger than this (default 100); they are reported as not checked
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
  --json             print the results as JSON instead of lines
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
}

function parseArguments(args: string[]): Options | string {
  const options: Options = { patterns: [], maxProblems: 1000, maxFileSizeMB: 100, pythonPaths: [], json: false, quiet: false, fix: false, stdin: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--max-problems') {
      const value = Number(args[++i]);
      if (!Number.isInteger(value) || value < 1) return '--max-problems takes a whole number of at least 1';
      options.maxProblems = value;
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
    else if (arg === '--json') options.json = true;
    else if (arg === '--fix') options.fix = true;
    else if (arg === '-q' || arg === '--quiet') options.quiet = true;
    else if (arg.startsWith('-')) return `unknown option ${arg}`;
    else options.patterns.push(arg);
  }
  if (options.patterns.length === 0 && !options.stdin) return 'name at least one file, folder or glob, or - for standard input';
  if (options.stdinName !== undefined && !options.stdin) return '--stdin-name names standard input: add - to check it';
  if (options.stdin && options.fix) return '--fix writes files: it cannot fix standard input';
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
  diff <left> <right>                 compares two runs step by step
  convert <file> [--out FILE]         writes a session, rollout or conversation as an Invariant trace (a test fixture)

agent-traces <command> --help shows a command's options; agent-traces --version (or -v) its version.

${exitCodeHelp}`;

const commands = ['check', 'eval', 'diff', 'convert'];

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
  const { files, unmatched, errors: inputErrors, skippedLinks, shown } = await expandArguments(options.patterns, cwd);
  const pythonModules = new FolderPythonModules(options.pythonPaths, [cwd], defaultServerSettings.maxPythonFileSize);
  for (const pattern of unmatched) console.error(`agent-traces: nothing to check matches ${escapeForTerminal(pattern)}`);
  const reports: FileReport[] = [
    ...inputErrors.map((error) => ({ path: error.path, problems: [], failure: error.reason })),
    ...skippedLinks.map((link) => ({ path: link.path, problems: [], skipped: link.reason })),
  ];
  const checkOptions = { maxProblems: options.maxProblems, maxBytes: options.maxFileSizeMB * bytesPerMB, pythonModules, fix: options.fix, cwd };
  if (options.stdin) reports.push(await checkStandardInput(options.stdinName ?? 'stdin.trace.json', checkOptions, options.stdinName ?? '<stdin>'));
  for (const file of files) reports.push(await checkFile(file, checkOptions, shown(file)));
  const notChecked = reports.filter((report) => report.failure).length;
  const notWritten = reports.filter((report) => report.notWritten).length;
  const skipped = skippedLinks.length;

  const count = (severity: string) =>
    reports.reduce((sum, report) => sum + report.problems.filter((p) => p.problem.severity === severity).length, 0);
  const errors = count('error');
  if (options.json) {
    console.log(escapeJsonForTerminal(JSON.stringify(reports.map((report) => ({
      path: report.path,
      failure: report.failure,
      skipped: report.skipped,
      fixed: report.fixed,
      notFixed: report.notFixed,
      notWritten: report.notWritten,
      writtenTo: report.writtenTo,
      problems: report.problems.map(({ line, column, problem, where }) => ({ line, column, severity: problem.severity, code: problem.code, message: problem.message, ...(where ? { where } : {}) })),
    })), null, 2)));
  } else {
    printLines(reports, options.quiet);
    const checked = reports.length - notChecked - skipped;
    const fileWord = checked === 1 ? 'file' : 'files';
    const failed = notChecked > 0 ? `, ${notChecked} could not be checked` : '';
    const unfixed = notWritten > 0 ? `, ${notWritten} not fixed` : '';
    const links = skipped > 0 ? `, ${skipped} symbolic ${skipped === 1 ? 'link' : 'links'} skipped` : '';
    console.log(`${checked} ${fileWord} checked${failed}${unfixed}${links}: ${errors} errors, ${count('warning')} warnings, ${count('information')} infos, ${count('hint')} hints`);
  }
  return exitCodeOf({ findings: errors > 0, incomplete: notChecked > 0 || notWritten > 0 || unmatched.length > 0 });
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
