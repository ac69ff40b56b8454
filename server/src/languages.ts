import type { LanguageService } from './common/languageService';
import { traceService } from './trace';
import { detectJsonLinesFormat, jsonlService } from './jsonl';
import { guardrailService } from './guardrail';
import { detectResponses, responsesService } from './responses';
import { ruleTestsService } from './ruleTests';
import { isManifestPath } from './ruleTests/manifest';
import { anthropicService, namedAsJsonLines, recognizeConversation } from './anthropic';
import { detectSpans, spansService } from './otel';
import { inspectService, recognizeInspectLog } from './inspect';
import { inspectLogHead } from '../../shared/requests';
import { FileHeads } from './disk/fileHeads';
import type { TraceWalk } from './disk/traceWalk';

export type LanguageId = 'agent-trace' | 'agent-trace-jsonl' | 'openai-responses' | 'agent-trace-anthropic' | 'otel-spans' | 'agent-trace-inspect' | 'guardrail' | 'rule-tests';

const services: Record<LanguageId, LanguageService<unknown>> = {
  'agent-trace': traceService as LanguageService<unknown>,
  'agent-trace-jsonl': jsonlService as LanguageService<unknown>,
  'openai-responses': responsesService as LanguageService<unknown>,
  'agent-trace-anthropic': anthropicService as LanguageService<unknown>,
  // OpenTelemetry spans: VS Code shows them as our trace languages, and the server reads them by their content.
  'otel-spans': spansService as LanguageService<unknown>,
  'agent-trace-inspect': inspectService as LanguageService<unknown>,
  guardrail: guardrailService as LanguageService<unknown>,
  // The tests of rule files (`X.tests.json`): VS Code opens them as JSON, and the server decides by their name.
  'rule-tests': ruleTestsService as LanguageService<unknown>,
};

/**
 * A JSON document that holds a trace, by its content: an Inspect AI log (by its first keys), an OpenAI Responses
 * conversation (a request, a response, a list of items; by its first characters), OpenTelemetry spans (by their
 * first keys), an Anthropic Messages conversation (by what only Anthropic's API writes), else an Invariant trace.
 */
function jsonTraceLanguage(text: string): LanguageId {
  if (recognizeInspectLog(text)) return 'agent-trace-inspect';
  if (detectResponses(text)) return 'openai-responses';
  if (detectSpans(text)) return 'otel-spans';
  return recognizeConversation(text, false) ? 'agent-trace-anthropic' : 'agent-trace';
}

export function serviceFor(languageId: string): LanguageService<unknown> | undefined {
  return (services as Record<string, LanguageService<unknown>>)[languageId];
}

/**
 * The language of a file that is not open in an editor (command-line checks, previews of files too large for the
 * editor to sync), by its name and, for `.jsonl` and `.json` other than `*.trace.*`, its content (an Anthropic
 * Messages conversation, else for `.jsonl` the first line).
 */
export function languageForFile(path: string, text?: string): LanguageId | undefined {
  const name = path.toLowerCase();
  if (name.endsWith('.gr')) return 'guardrail';
  if (isManifestPath(name)) return 'rule-tests';
  if (name.endsWith('.trace.jsonl')) return 'agent-trace-jsonl';
  // An Inspect `.eval` archive, read as the JSON log it holds (inspect/evalArchive.ts): `text` is that log.
  if (name.endsWith('.eval')) return text === undefined || recognizeInspectLog(text) ? 'agent-trace-inspect' : undefined;
  if (name.endsWith('.jsonl')) {
    if (text === undefined) return 'agent-trace-jsonl';
    if (detectSpans(text)) return 'otel-spans';
    if (recognizeConversation(text, true)) return 'agent-trace-anthropic';
    return detectJsonLinesFormat(text) ? 'agent-trace-jsonl' : undefined;
  }
  // A `.trace.json` is an Invariant trace by its name, whatever its messages look like.
  if (name.endsWith('.json')) return text === undefined || name.endsWith('.trace.json') ? 'agent-trace' : jsonTraceLanguage(text);
  return undefined;
}

/**
 * The language of a document an editor opened. An id of ours is taken as given, except that our JSON trace language
 * holds whichever JSON trace the content is (an Invariant trace, a Responses conversation); any other id (the
 * generic `json`, `jsonc`, `jsonl`, `plaintext` other editors send, or one we do not know) is decided as the checker
 * decides a folder's files: by name (`*.trace.json`, `*.trace.jsonl`, `*.gr`), for other `.jsonl` by the first line,
 * and for any other file by content (a Responses conversation is recognised whatever the file is called).
 */
export function languageForDocument(uri: string, clientLanguageId: string, text: string): LanguageId | undefined {
  // Our editor's JSON trace language holds whichever JSON trace the content is (a `.trace.json` is a trace by name).
  const path = uriPath(uri);
  if (clientLanguageId === 'agent-trace') return path.toLowerCase().endsWith('.trace.json') ? 'agent-trace' : jsonTraceLanguage(text);
  // An editor may call a JSON Lines file of spans or a conversation a trace log by its first line alone.
  if (clientLanguageId === 'agent-trace-jsonl' && !/\.trace\.jsonl$/i.test(path) && detectSpans(text)) return 'otel-spans';
  if (clientLanguageId === 'agent-trace-jsonl' && !/\.trace\.jsonl$/i.test(path) && recognizeConversation(text, namedAsJsonLines(path))) return 'agent-trace-anthropic';
  if (Object.hasOwn(services, clientLanguageId)) return clientLanguageId as LanguageId;
  if (isManifestPath(path)) return 'rule-tests';
  if (isCheckedByDefault(path)) return languageForFile(path, text);
  // Any other file is ours only when its content is a conversation a format of ours recognises.
  if (recognizeInspectLog(text)) return 'agent-trace-inspect';
  if (detectResponses(text)) return 'openai-responses';
  if (detectSpans(text)) return 'otel-spans';
  if (looksLikeSession(text) || looksLikeRollout(text)) return 'agent-trace-jsonl';
  return recognizeConversation(text, namedAsJsonLines(path)) ? 'agent-trace-anthropic' : undefined;
}

/**
 * A Claude Code session, whatever its name: its first line is one of the session's records. Claude Code writes
 * compact JSON whose first key is `type` or `parentUuid`, so other texts are passed over without being read.
 */
function looksLikeSession(text: string): boolean {
  return /^\uFEFF?\{"(?:type|parentUuid)":/.test(text.slice(0, 32)) && detectJsonLinesFormat(text) === 'claude-code';
}

/** A Codex rollout, whatever its name: its first record opens with its own keys, so other texts are not read further. */
function looksLikeRollout(text: string): boolean {
  return /^\uFEFF?\s*\{\s*"(?:timestamp|type|payload)"/.test(text.slice(0, 200)) && detectJsonLinesFormat(text) === 'codex';
}

function uriPath(uri: string): string {
  const end = uri.search(/[?#]/);
  const path = end === -1 ? uri : uri.slice(0, end);
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Whether a folder walk should pick this file up (explicitly named files are checked whatever their name). */
export function isCheckedByDefault(path: string): boolean {
  const name = path.toLowerCase();
  return name.endsWith('.trace.json') || name.endsWith('.trace.jsonl') || name.endsWith('.jsonl') || name.endsWith('.gr');
}

/*
 * Which files of a folder hold traces when nobody named them: the files named like traces (`*.trace.json`,
 * `*.jsonl`, …), and the `.json` files whose first 64 KB say they are Inspect AI logs (Inspect names its logs after
 * the run), files of OpenTelemetry spans (the collector's file exporter and any-agent name them as their users say),
 * or Anthropic Messages or OpenAI Responses conversations (saved request and response bodies). Other `.json` files
 * (`package.json`, settings, data) cost a look at their head and are left alone. The command line's folder walks
 * (cli/check.ts) and the workspace's (tool index, rule files' lenses, the comparison of a rule change) decide alike.
 */

/** Whether a `.json` file's head holds traces of a format recognised by its content. */
export function holdsTracesByContent(head: string): boolean {
  return recognizeInspectLog(head) || detectSpans(head) !== undefined || detectResponses(head) !== undefined
    || recognizeConversation(head, false) !== undefined;
}

const isJsonFile = (path: string) => path.toLowerCase().endsWith('.json');

/** Trace files by name for the workspace's walks (rule files are not traces). */
const isTraceNamed = (path: string) => isCheckedByDefault(path) && !path.toLowerCase().endsWith('.gr');

/** The workspace's looks at `.json` heads, shared by its walks so that an unchanged file is read once. */
const workspaceHeads = new FileHeads(holdsTracesByContent, inspectLogHead);

/** How the workspace's walks find trace files, looking at `maxHeads` `.json` heads per walk at most. */
export function workspaceTraceWalk(maxHeads: number, heads: FileHeads = workspaceHeads): TraceWalk {
  return { byName: isTraceNamed, byHead: (path) => isJsonFile(path) && !isTraceNamed(path), heads, maxHeads };
}
