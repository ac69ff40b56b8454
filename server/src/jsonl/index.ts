import type { Budget } from '../common/budget';
import type { LanguageService, ServiceContext } from '../common/languageService';
import type { CompletionEntry, Highlight, HoverResult, OutlineItem, Problem, Target } from '../common/types';
import { agentguardCompletion } from './agentguard/completion';
import { agentguardDefinition } from './agentguard/definition';
import { agentguardHighlights } from './agentguard/highlights';
import { agentguardHover } from './agentguard/hover';
import { agentguardReferences } from './agentguard/references';
import { agentguardCalledTool } from './agentguard/tools';
import { agentguardGraph } from './agentguard/graph';
import { agentguardSymbols } from './agentguard/symbols';
import { validateAgentguard } from './agentguard/validate';
import { datasetPlace } from './dataset/annotations';
import {
  datasetCodeFixes, datasetInlayHints, datasetParsesWithEdits, datasetPrepareRename, datasetRefactorings, datasetRename, datasetRenameRefusal,
} from './dataset/codeActions';
import { datasetCodeLenses } from './dataset/codeLenses';
import { datasetCompletion } from './dataset/completion';
import { datasetDefinition } from './dataset/definition';
import { datasetGraph } from './dataset/graph';
import { datasetHighlights } from './dataset/highlights';
import { datasetHover } from './dataset/hover';
import { datasetReferences } from './dataset/references';
import { readDatasetLine } from './dataset/readLine';
import { datasetSymbols } from './dataset/symbols';
import { datasetCalledTools } from './dataset/tools';
import { isTraceLine } from './dataset/traceBridge';
import { validateDatasetLines } from './dataset/validate';
import { folding } from './folding';
import { sessionGraph } from './claudeCode/graph';
import { sessionHover } from './claudeCode/hover';
import { readSessionLine } from './claudeCode/lines';
import { sessionDefinition, sessionHighlights, sessionReferences } from './claudeCode/navigation';
import { recognizeSession } from './claudeCode/recognize';
import { sessionOf } from './claudeCode/session';
import { sessionEvents } from './claudeCode/events';
import { rolloutEvents } from './codex/events';
import type { ConvertedTrace } from '../calls/sourcedEvents';
import { sessionSymbols, startsListedTurn } from './claudeCode/symbols';
import { validateSession } from './claudeCode/validate';
import { rolloutCompletion } from './codex/completion';
import { rolloutGraph } from './codex/graph';
import { rolloutHover } from './codex/hover';
import { readRolloutLine } from './codex/lines';
import { rolloutDefinition, rolloutHighlights, rolloutReferences } from './codex/navigation';
import { recognizeRollout } from './codex/recognize';
import { rolloutOf } from './codex/rollout';
import { opensListedEntry, rolloutSymbols } from './codex/symbols';
import { validateRollout } from './codex/validate';
import type { LinkedCalls } from '../calls/model';
import { detectFormat } from './detect';
import { codeLenses } from '../calls/codeLenses';
import { inlayHints } from '../calls/inlayHints';
import { prepareRename, rename, renameRefusal } from '../calls/rename';
import { lineAt, type FileFormat, type LinesModel } from './lines';
import { placeAt } from './locate';
import { parseLines, type LineReader } from './model';
import { parseLinesAfterEdit } from './reparse';
import { outlineWithLimit } from './symbols';
import { validateLines } from './validate';

export type { LinesModel, Line, LineKind, FileFormat } from './lines';
/** Whether a `.jsonl` file is one of ours, and which, from its first non-blank line (see detect.ts). */
export function detectJsonLinesFormat(text: string): FileFormat | undefined {
  return detectFormat(text, [recognizeSession, recognizeRollout]);
}

/** How a file's lines are read: the format its first line gives it (detectJsonLinesFormat) and the reader it calls for. */
interface Reading {
  format: FileFormat | undefined;
  reader: LineReader;
}

/**
 * The reading of a file's lines: a session's records by the session's reader, a rollout's by the rollout's, a
 * dataset's lines by the dataset's (other lines, of any, by the family's generic one).
 */
function readingFor(text: string): Reading {
  const format = detectJsonLinesFormat(text);
  return { format, reader: format === 'claude-code' ? readSessionLine : format === 'codex' ? readRolloutLine : readDatasetLine };
}

/** The conversation of linked calls of a session or a rollout; undefined for the other members. */
function conversationOf(model: LinesModel): LinkedCalls | undefined {
  return model.format === 'claude-code' ? sessionOf(model) : model.format === 'codex' ? rolloutOf(model) : undefined;
}

/** The reading each model's lines were read with. */
const readings = new WeakMap<LinesModel, Reading>();

function readBy(reading: Reading, model: LinesModel): LinesModel {
  readings.set(model, reading);
  if (model.format === 'claude-code' || model.format === 'codex') rememberSession(model);
  return model;
}

/**
 * The format a model's first line gave its file, as detectJsonLinesFormat gives it for the model's text, kept from
 * the reading (no text is read again); `unread` for a model this service did not read.
 */
export function firstLineFormatOf(model: unknown): FileFormat | undefined | 'unread' {
  const reading = typeof model === 'object' && model !== null ? readings.get(model as LinesModel) : undefined;
  return reading ? reading.format : 'unread';
}

/**
 * The sessions and rollouts read last, by their text: the rules that evaluate an open session convert the model the
 * editor already read rather than read the text again (a 3 MB session takes a few hundred milliseconds to read).
 */
const recentSessions: LinesModel[] = [];
const maxRecentSessions = 2;

function rememberSession(model: LinesModel): void {
  const known = recentSessions.indexOf(model);
  if (known >= 0) recentSessions.splice(known, 1);
  recentSessions.unshift(model);
  recentSessions.length = Math.min(recentSessions.length, maxRecentSessions);
}

/**
 * JSON Lines trace files, a family of formats: Invariant Explorer datasets (one trace per line, features in
 * dataset/), agentguard tool-call logs (agentguard/), Claude Code sessions (claudeCode/) and Codex CLI rollouts
 * (codex/). This dispatcher is the
 * one file that knows the members: the line under the cursor decides which answers (an agentguard entry is read as
 * one in any file); file-wide requests (checks, outline, preview) go by the file's format. The family's shared files
 * (lines, model, locate, …) know no member, and a member never imports this file.
 */
export const jsonlService: LanguageService<LinesModel> = {
  // Each member's lines are read by its own reader, in one pass; other lines by the family's generic one.
  parse: (doc) => {
    const reading = readingFor(doc.text);
    return readBy(reading, parseLines(doc, reading.reader));
  },
  reparse: (previous, doc, edit) => {
    // An edit that changes which reader the first line calls for reads the file again whole with the new one. The
    // reader is the one its first line chose, not the model's format: a session whose first records are broken may
    // take its format from a later line of another kind.
    const reading = readingFor(doc.text);
    const { reader } = reading;
    if (reader !== (readings.get(previous) ?? readingFor(previous.text)).reader) return readBy(reading, parseLines(doc, reader));
    return readBy(reading, parseLinesAfterEdit(previous, doc, reader, edit));
  },
  validate,
  hover,
  definition,
  references,
  highlights,
  symbols,
  folding,
  completion,
  graph: (model, options, context) => (model.format === 'agentguard' ? agentguardGraph(model, options, context)
    : model.format === 'claude-code' ? sessionGraph(model, options, context, options.problems ?? validate(model, context))
      : model.format === 'codex' ? rolloutGraph(model, options, context, options.problems ?? validate(model, context))
        : datasetGraph(model, options, context)),
  calledTools,
  codeFixes: (model, problems) => (model.format === 'codex' ? [] : datasetCodeFixes(model, problems)),
  parsesWithEdits: datasetParsesWithEdits,
  inlayHints: (model, span, context) => {
    const conversation = conversationOf(model);
    return conversation ? inlayHints(conversation, span, context) : datasetInlayHints(model, span, context);
  },
  codeLenses: (model, context) => {
    const conversation = conversationOf(model);
    return conversation ? codeLenses(conversation, model.uri, context) : datasetCodeLenses(model, context);
  },
  refactorings: (model, span) => (model.format === 'codex' ? [] : datasetRefactorings(model, span)),
  prepareRename: (model, offset) => {
    const conversation = conversationOf(model);
    return conversation ? prepareRename(conversation, offset) : datasetPrepareRename(model, offset);
  },
  renameRefusal: (model, offset) => {
    const conversation = conversationOf(model);
    return conversation ? renameRefusal(conversation, offset) : datasetRenameRefusal(model, offset);
  },
  rename: (model, offset, newName) => {
    const conversation = conversationOf(model);
    return conversation ? rename(conversation, offset, newName) : datasetRename(model, offset, newName);
  },
};

function validate(model: LinesModel, context: ServiceContext): Problem[] {
  // A session is written as it runs: its last line may be cut while it is being written.
  if (model.format === 'claude-code') return validateLines(model, context, (report) => validateSession(model, context, report), true);
  // So is a rollout.
  if (model.format === 'codex') return validateLines(model, context, (report) => validateRollout(model, context, report), true);
  return validateLines(model, context, (report) => (model.format === 'agentguard'
    ? validateAgentguard(model, context, report)
    : validateDatasetLines(model, context, report)));
}

/**
 * Datasets: one entry per trace (its name or index, event count, first user message) with its events below.
 * agentguard logs: one entry per call, `#<line> <tool>` with status and duration; failures and LLM spend marked.
 * `budget` is checked per line and inside each trace line's parse.
 */
function symbols(model: LinesModel, budget?: Budget): OutlineItem[] {
  const max = model.maxOutlineEntries;
  if (model.format === 'claude-code') return outlineWithLimit(model, sessionSymbols(model, max, budget), startsListedTurn(model), 'prompts');
  if (model.format === 'codex') return outlineWithLimit(model, rolloutSymbols(model, max, budget), opensListedEntry(model), 'turns');
  return model.format === 'agentguard'
    ? outlineWithLimit(model, agentguardSymbols(model, max, budget), (line) => line.kind === 'agentguard', 'calls')
    : outlineWithLimit(model, datasetSymbols(model, max, budget), (line) => line.kind === 'metadata' || isTraceLine(line), 'traces');
}

function hover(model: LinesModel, offset: number, context: ServiceContext): HoverResult | null {
  const place = placeAt(model, offset);
  if (!place) return null;
  if (model.format === 'claude-code') return sessionHover(model, place, offset);
  if (model.format === 'codex') return rolloutHover(model, place, offset);
  return place.line.kind === 'agentguard' ? agentguardHover(place) : datasetHover(model, datasetPlace(model, place, offset), offset, context);
}

function definition(model: LinesModel, offset: number, context?: ServiceContext): Target[] {
  const place = placeAt(model, offset);
  if (!place) return [];
  if (model.format === 'claude-code') return sessionDefinition(model, place, offset, context);
  if (model.format === 'codex') return rolloutDefinition(model, offset);
  return place.line.kind === 'agentguard' ? agentguardDefinition(model, offset) : datasetDefinition(model, datasetPlace(model, place, offset), offset);
}

function references(model: LinesModel, offset: number, includeDeclaration: boolean): Target[] {
  const place = placeAt(model, offset);
  if (!place) return [];
  if (model.format === 'claude-code') return sessionReferences(model, place, offset, includeDeclaration);
  if (model.format === 'codex') return rolloutReferences(model, offset, includeDeclaration);
  return place.line.kind === 'agentguard'
    ? agentguardReferences(model, place.line, offset, includeDeclaration)
    : datasetReferences(model, datasetPlace(model, place, offset), offset, includeDeclaration);
}

function highlights(model: LinesModel, offset: number): Highlight[] {
  const place = placeAt(model, offset);
  if (!place) return [];
  if (model.format === 'claude-code') return sessionHighlights(model, place, offset);
  if (model.format === 'codex') return rolloutHighlights(model, offset);
  return place.line.kind === 'agentguard' ? agentguardHighlights(model, offset) : datasetHighlights(model, datasetPlace(model, place, offset), offset);
}

/** A broken line of an agentguard log is still completed as an entry. */
function completion(model: LinesModel, offset: number, context: ServiceContext): CompletionEntry[] {
  const line = lineAt(model, offset);
  if (!line || model.format === 'claude-code') return [];
  const place = placeAt(model, offset);
  if (model.format === 'codex') return place ? rolloutCompletion(model.text, place, offset) : [];
  if (line.kind === 'agentguard' || (model.format === 'agentguard' && line.kind === 'invalid')) {
    return place ? agentguardCompletion(model, place.path, place.steps[place.steps.length - 1].node, offset) : [];
  }
  return datasetCompletion(model, line, place && datasetPlace(model, place, offset), offset, context);
}

/** How often each tool is called in the file: agentguard entries by tool_name, dataset traces by their calls. */
function calledTools(model: LinesModel): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (name: string | undefined): void => {
    if (name) counts.set(name, (counts.get(name) ?? 0) + 1);
  };
  const conversation = conversationOf(model);
  if (conversation) {
    for (const call of conversation.calls) add(call.name);
    return counts;
  }
  for (const line of model.contentLines) {
    if (line.kind === 'agentguard') add(agentguardCalledTool(line));
    else datasetCalledTools(model, line, add);
  }
  return counts;
}

/**
 * The Invariant trace of a JSON Lines text that converts to one (a Claude Code session, a Codex rollout), with the
 * lines left out (broken, or past the line limit); undefined for any other file (a dataset's lines are traces already).
 */
export function convertedEventsOfText(text: string, maxLines?: number): ConvertedTrace | undefined {
  const format = detectJsonLinesFormat(text);
  if (format !== 'claude-code' && format !== 'codex') return undefined;
  const recent = recentSessions.find((model) => model.text === text && (maxLines === undefined || model.maxLines === maxLines));
  const model = recent ?? parseLines({ uri: '', version: 0, text, maxLines }, format === 'codex' ? readRolloutLine : readSessionLine);
  const { events, skippedLines } = format === 'codex' ? rolloutEvents(model) : sessionEvents(model);
  return { start: 0, end: text.length, events, skippedLines, omittedLines: model.omittedLines };
}
