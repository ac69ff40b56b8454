/**
 * The compare requests (the server's wiring for diff/compare.ts): each side's text is the one the client sent (a
 * committed version), the open document's, or the file's on disk (within the workspace and the size limit), and
 * the diff runs in slices so that other requests are answered meanwhile. The latest comparisons are kept, with the
 * texts they read, to say where a clicked step or field is.
 */
import { basename } from 'node:path';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextDocuments } from 'vscode-languageserver';
import type { CompareData } from '../../../shared/protocol';
import type { CompareLocateParams, CompareParams, CompareSideParams } from '../../../shared/requests';
import type { LineRange } from '../../../shared/protocol';
import { LruCache } from '../common/lru';
import { BudgetExceeded } from '../common/budget';
import { LineIndex } from '../common/lineIndex';
import { nextTurn, runStepsInSlices, sliceMs } from '../common/steps';
import { toRange } from './toProtocol';
import { compareInSteps, type CompareSideInput, type Comparison } from '../diff/compare';
import { bytesPerMB, pathOfUri, readTextFile } from '../disk/files';
import type { ServerSettings } from '../settings';

export interface CompareContext {
  documents: TextDocuments<TextDocument>;
  settings: ServerSettings;
  folders: string[];
  /** True once the request was cancelled: the diff stops at its next pause. */
  cancelled(): boolean;
}

/** Comparisons kept for their clicks: each holds both texts, so only the few latest (one per open view, mostly). */
const keptComparisons = 8;

export class Comparisons {
  private readonly kept = new LruCache<string, Comparison>(keptComparisons);
  private made = 0;

  async compare(params: CompareParams, context: CompareContext): Promise<CompareData> {
    const [left, right] = await Promise.all([sideInput(params.left, context), sideInput(params.right, context)]);
    const { settings } = context;
    const pause = async () => {
      await nextTurn();
      if (context.cancelled()) throw new BudgetExceeded('cancelled');
    };
    const id = `compare-${++this.made}`;
    const comparison = await runStepsInSlices(compareInSteps(left, right, {
      maxSteps: settings.compare.maxSteps,
      maxAlignmentWork: settings.compare.maxAlignmentWork,
      maxTextLength: settings.preview.maxTextLength,
      ignore: settings.compare.ignore,
      compareIds: params.compareIds === true,
    }, id), pause, sliceMs);
    this.kept.set(id, comparison);
    return comparison.data;
  }

  locate(params: CompareLocateParams): { range: LineRange; selection: LineRange } | null {
    const comparison = this.kept.get(params.id);
    if (!comparison || (params.side !== 'left' && params.side !== 'right')) return null;
    return comparison.locate(params.side, params.step, typeof params.path === 'string' ? params.path : undefined);
  }
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
