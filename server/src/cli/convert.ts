import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { bytesPerMB } from '../disk/files';
import { readInputText } from './readInput';
import { ConversionFailure, defaultOutputPath, describeReplacement, formOfOutput, outputText, redactorFor, startConversion } from '../conversion';
import { escapeForTerminal } from './escape';
import { ExitCode, exitCodeHelp } from './exitCodes';
import { removeTemporariesOnInterrupt, writeFileAtomically } from './replaceFile';
import { defaultMaxFileSizeMB, readMaxFileSize } from './runOptions';

export const convertUsage = `Usage: agent-traces convert <file> [--out FILE] [--redact] [--max-file-size MB]

Writes the Invariant trace of a file in another format, the events guardrail rules see on it, ready to use as a
test fixture for rules: a Claude Code session (its live conversation) or an Anthropic Messages conversation,
converted as Invariant's gateway converts Anthropic messages (empty and failed tool results kept); a Codex rollout or
an OpenAI Responses conversation, whose items convert to the Chat Completions messages they stand for
(docs/formats.md states the mapping); an Inspect AI log, .json or .eval archive, one trace per sample; a file of
OpenTelemetry GenAI spans (OTLP JSON lines, .jsonl or .json, or any-agent's {"spans": [...]} .json), one trace per
trace it holds. Each is recognised by its content, whatever its name. A file that holds several conversations,
samples or traces gives a trace each.

Options:
  --out FILE   where to write; its name decides the form: .trace.json (or any .json) one pretty-printed trace
               (the first, with a warning, when the input holds several), .jsonl one compact trace per line.
               Without it: <input without its extension>.trace.json beside the input (.trace.jsonl when the input
               holds several traces). The file is written whole or not at all: an interrupted run (Ctrl-C)
               leaves no part of it behind.
  --max-file-size MB  read the input only up to this size (default 100)
  --redact     replace what looks like a secret (API keys and tokens, passwords in URLs, private keys, credentials
               assigned in text) and home folders with placeholders, and list each replacement
  -h, --help   show this help

An input that cannot be read or does not convert is an input not read (exit 3); the trace written is no finding.

${exitCodeHelp}`;

interface ConvertOptions {
  input: string;
  out?: string;
  redact: boolean;
  maxFileBytes: number;
}

function parseConvertArguments(args: string[]): ConvertOptions | string {
  const positional: string[] = [];
  let out: string | undefined;
  let redact = false;
  let maxFileBytes = defaultMaxFileSizeMB * bytesPerMB;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--out') {
      out = args[++i];
      if (!out) return '--out takes a file name';
      if (!formOfOutput(out)) return `--out must name a .json (one trace) or .jsonl (one trace per line) file, not ${out}`;
    } else if (arg === '--max-file-size') {
      const value = readMaxFileSize(args[++i]);
      if (typeof value === 'string') return value;
      maxFileBytes = value;
    } else if (arg === '--redact') redact = true;
    else if (arg.startsWith('-')) return `unknown option ${arg}`;
    else positional.push(arg);
  }
  if (positional.length !== 1) return 'name one file to convert';
  return { input: positional[0], out, redact, maxFileBytes };
}

export async function runConvert(args: string[]): Promise<number> {
  const options = parseConvertArguments(args);
  if (typeof options === 'string') {
    console.error(`agent-traces convert: ${options}\n\n${convertUsage}`);
    return ExitCode.usage;
  }
  removeTemporariesOnInterrupt();
  const cwd = process.cwd();
  // Paths as the user gave them: the input as named, the output as --out names it or beside the input's name.
  const given = new Map<string, string>();
  const shown = (path: string) => escapeForTerminal(given.get(path) ?? path);
  const input = resolve(cwd, options.input);
  given.set(input, options.input);
  const read = await readInputText(input, { maxBytes: options.maxFileBytes, setting: '--max-file-size' });
  if (!read.ok) {
    console.error(`agent-traces convert: ${shown(input)}: ${read.reason}`);
    return ExitCode.incomplete;
  }
  const conversion = startConversion(input, read.text);
  if ('reason' in conversion) {
    console.error(`agent-traces convert: ${shown(input)}: not converted: ${conversion.reason}`);
    return ExitCode.incomplete;
  }
  const outName = options.out ?? defaultOutputPath(options.input, conversion.several ? 2 : 1);
  const out = resolve(cwd, outName);
  given.set(out, outName);
  if (out === read.path || out === input) {
    console.error(`agent-traces convert: ${shown(out)}: the output would replace the input; name another with --out`);
    return ExitCode.usage;
  }
  const form = formOfOutput(out)!;
  const redactor = options.redact ? redactorFor(homedir()) : undefined;
  // Each trace is written as it is converted, so a big file (an Inspect log of many samples) is never held converted.
  let result;
  try {
    result = await writeFileAtomically(out, outputText(conversion.traces, form, redactor));
  } catch (failure) {
    if (!(failure instanceof ConversionFailure)) throw failure;
    console.error(`agent-traces convert: ${shown(input)}: not converted: ${failure.message}`);
    return ExitCode.incomplete;
  }
  if (!result.ok) {
    console.error(`agent-traces convert: ${shown(out)}: ${result.reason}`);
    return ExitCode.incomplete;
  }
  const { counts } = conversion;
  const written = form === 'trace' ? 1 : counts.traces;
  if (counts.traces > written) {
    console.error(`agent-traces convert: warning: ${shown(input)} holds ${counts.traces} traces; ${shown(out)} holds the first only (name a .jsonl file to write them all)`);
  }
  for (const line of counts.skippedLines) console.error(`agent-traces convert: warning: ${shown(input)}:${line}: left out: not valid JSON`);
  if (counts.omittedLines > 0) console.error(`agent-traces convert: warning: ${shown(input)}: the last ${counts.omittedLines} lines left out: past the limit of lines read`);
  const replaced = redactor?.replaced ?? [];
  for (const r of replaced) console.log(`redacted ${escapeForTerminal(describeReplacement(r, written > 1))}`);
  const events = form === 'trace' ? counts.firstEvents : counts.events;
  const redacted = options.redact ? `, ${replaced.length} replacement${replaced.length === 1 ? '' : 's'}` : '';
  console.log(`${shown(out)}: ${written} trace${written === 1 ? '' : 's'}, ${events} event${events === 1 ? '' : 's'}${redacted}`);
  return counts.skippedLines.length > 0 || counts.omittedLines > 0 ? ExitCode.incomplete : ExitCode.clean;
}
