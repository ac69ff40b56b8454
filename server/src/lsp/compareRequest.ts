/**
 * The compare request (the server's wiring for diff/compare.ts): each side's text is the one the client sent (a
 * committed version), the open document's, or the file's on disk (within the workspace and the size limit), and
 * the diff runs in slices so that other requests are answered meanwhile.
 */
import { basename } from 'node:path';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocuments } from 'vscode-languageserver/node';
import type { CompareData } from '../../../shared/protocol';
import type { CompareParams, CompareSideParams } from '../../../shared/requests';
import { BudgetExceeded } from '../common/budget';
import { LineIndex } from '../common/lineIndex';
import { nextTurn, runStepsInSlices, sliceMs } from '../common/steps';
import { toRange } from './toProtocol';
import { compareInSteps, type CompareSideInput } from '../diff/compare';
import { bytesPerMB, pathOfUri, readTextFile } from '../disk/files';
import type { ServerSettings } from '../settings';

export interface CompareContext {
  documents: TextDocuments<TextDocument>;
  settings: ServerSettings;
  folders: string[];
  /** True once the request was cancelled: the diff stops at its next pause. */
  cancelled(): boolean;
}

export async function compareDocuments(params: CompareParams, context: CompareContext): Promise<CompareData> {
  const [left, right] = await Promise.all([sideInput(params.left, context), sideInput(params.right, context)]);
  const { settings } = context;
  const pause = async () => {
    await nextTurn();
    if (context.cancelled()) throw new BudgetExceeded('cancelled');
  };
  return runStepsInSlices(compareInSteps(left, right, {
    maxSteps: settings.compare.maxSteps,
    maxAlignmentWork: settings.compare.maxAlignmentWork,
    maxTextLength: settings.preview.maxTextLength,
    ignore: settings.compare.ignore,
    compareIds: params.compareIds === true,
  }), pause, sliceMs);
}

async function sideInput(params: CompareSideParams, context: CompareContext): Promise<CompareSideInput> {
  const path = pathOfUri(params.uri) ?? decodeURIComponent(params.uri.replace(/[?#].*$/, ''));
  const label = params.label ?? basename(path);
  const base = { uri: params.uri, path, label, traceIndex: params.traceIndex };
  const open = params.text === undefined ? context.documents.get(params.uri) : undefined;
  if (open) return { ...base, text: open.getText(), toRange: (span) => toRange(open, span) };
  let text = params.text;
  if (text === undefined) {
    const file = pathOfUri(params.uri);
    if (!file) return { ...base, text: '', error: 'only files on disk, open documents and texts sent with the request can be compared', toRange: noRange };
    const read = await readTextFile(file, { maxBytes: context.settings.maxFileSizeMB * bytesPerMB, folders: context.folders, setting: 'agentTraces.files.maxSizeMB' });
    if (!read.ok) return { ...base, text: '', error: read.reason, toRange: noRange };
    text = read.text;
  }
  const lines = new LineIndex(text);
  return { ...base, text, toRange: (span) => ({ start: lines.positionAt(span.start), end: lines.positionAt(span.end) }) };
}

const noRange = () => ({ start: { line: 0, character: 0 }, end: { line: 0, character: 0 } });
