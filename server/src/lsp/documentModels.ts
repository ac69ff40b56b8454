import type { TextDocument } from 'vscode-languageserver-textdocument';
import type { DocumentInput, LanguageService, ProblemsSoFar, ServiceContext, Settings } from '../common/languageService';
import type { Problem } from '../common/types';
import { BudgetExceeded, checkBudget, type Budget } from '../common/budget';
import { LineIndex } from '../common/lineIndex';
import { bytesPerMB, pathOfUri, readTextFile } from '../disk/files';
import { languageForDocument, languageForFile, serviceFor, type LanguageId } from '../languages';
import type { PositionMapper } from './toProtocol';
import { failedParseService, type FailedParse } from './failedParse';
import type { EditLog } from './editLog';
import { nextTurn, sliceFromLength, sliceMs } from '../common/steps';
import type { TextSource } from '../common/textSource';
import { EditorDocument } from './editorDocument';
import { describeError } from '../common/text';

export interface ParsedDocument {
  uri: string;
  version: number;
  languageId: string;
  service: LanguageService<unknown>;
  model: unknown;
  positions: PositionMapper & { offsetAt(position: { line: number; character: number }): number };
  /** The limits the model was read with (new limits read the document again). */
  limits: ParseLimits;
  /** The problems last found in this version, and the settings they were found with. */
  problems?: { settings: Settings; list: Problem[] };
  /** Read in slices (a big document): its check runs in slices too. */
  inSlices?: boolean;
}

/**
 * The problems of a version found again (see problemsOf), in slices of `slice` ms when the document was read in
 * slices; `pause` may throw BudgetExceeded to stop the check between two slices.
 */
export async function problemsInSlices(
  parsed: ParsedDocument, context: ServiceContext, pause = nextTurn, slice = sliceMs, found?: (soFar: ProblemsSoFar) => void,
): Promise<Problem[]> {
  if (!parsed.inSlices || !parsed.service.validateInSlices) return problemsOf(parsed, context, 'check again');
  const list = await parsed.service.validateInSlices(parsed.model, context, pause, slice, found);
  parsed.problems = { settings: context.settings, list };
  return list;
}

/** A big document being read in slices: every request for that version awaits the same reading. */
interface Reading {
  version: number;
  languageId: string;
  limits: ParseLimits;
  /** A newer version or a close made this reading useless: it stops at its next token. */
  superseded: boolean;
  done: Promise<ParsedDocument>;
}

/**
 * The problems of a parsed version: found again when asked to (the server's check, since the workspace's tools and
 * Python modules may have changed) or when the settings changed, else the list found last (the preview's marks).
 */
export function problemsOf(parsed: ParsedDocument, context: ServiceContext, refresh?: 'check again'): Problem[] {
  if (!refresh && parsed.problems?.settings === context.settings) return parsed.problems.list;
  const list = parsed.service.validate(parsed.model, context);
  parsed.problems = { settings: context.settings, list };
  return list;
}

export interface ModelLimits {
  maxLines: number;
  /** JSON Lines outline entries and per-line trace models kept (DocumentInput); defaults when absent. */
  maxOutlineEntries?: number;
  cachedLineModels?: number;
  maxFileSizeMB: number;
  /** Workspace folder paths: files read from disk must lie inside one of them. */
  folders: string[];
}

/**
 * One parsed model per document version: every request for the same version shares it, and a parse that throws
 * is kept too (as a model that reports the failure), so it is not repeated on every request. Files that the editor
 * does not sync (over VS Code's 50 MB limit) are read from disk for the preview and cached by modification time.
 */
export class DocumentModels {
  private readonly open = new Map<string, ParsedDocument>();
  private fromDisk: { uri: string; text: string; parsed: ParsedDocument } | undefined;
  private readonly languages = new Map<string, { clientLanguageId: string; languageId: LanguageId | undefined }>();
  private readonly reading = new Map<string, Reading>();

  constructor(
    private readonly limits: () => ModelLimits,
    private readonly log: (message: string) => void = () => undefined,
    /** The editor's edits: with them an edited version's model is built from the previous one where the language can. */
    private readonly edits?: EditLog,
  ) {}

  /** `budget`: a request's cancellation and time budget, checked while parsing (the parse then throws BudgetExceeded). */
  get(document: TextDocument, budget?: Budget): ParsedDocument | undefined {
    const limits = parseLimits(this.limits());
    const languageId = this.languageOf(document);
    const cached = this.open.get(document.uri);
    if (cached && readFrom(cached, languageId, limits) && cached.version === document.version) return cached;
    const service = languageId && serviceFor(languageId);
    if (!languageId || !service) return undefined;
    const reread = this.reread(cached, document, languageId, limits, budget);
    if (reread) return reread;
    const parsed = this.parse(document.uri, document.version, languageId, service, document.getText(), document, limits, budget);
    this.open.set(document.uri, parsed);
    return parsed;
  }

  /** The model of an edited version built from the previous version's model (see LanguageService.reparse). */
  private reread(
    cached: ParsedDocument | undefined, document: TextDocument, languageId: LanguageId, limits: ParseLimits, budget: Budget | undefined,
  ): ParsedDocument | undefined {
    const { uri, version } = document;
    // The editor's edits since the cached version, when all are known (else the language finds what changed itself).
    const change = this.edits?.take(uri, cached?.version, version);
    const service = cached?.service;
    if (!cached || !readFrom(cached, languageId, limits) || !service?.reparse) return undefined;
    // The whole text is joined only when the language asks for it (an edited big document is kept in chunks).
    const input: DocumentInput = { uri, version, get text() { return document.getText(); }, source: sourceOf(document), ...limits, budget };
    let model: unknown;
    try {
      model = service.reparse(cached.model, input, change);
    } catch (error) {
      // The request stopped: the previous model is as it was (see reparse) and serves the next request.
      if (error instanceof BudgetExceeded) throw error;
      // Otherwise it may be half moved: it is dropped, and the version read in full.
      this.open.delete(uri);
      this.log(`[reparse] ${uri}@${version}: ${describeError(error)}`);
      return undefined;
    }
    if (model === undefined) return undefined;
    // The editor's document keeps its line offsets up to date through edits; a big one is checked in slices.
    const parsed: ParsedDocument = { uri, version, languageId, service, model, positions: document, limits, inSlices: lengthOf(document) >= sliceFromLength };
    this.open.set(uri, parsed);
    return parsed;
  }

  /**
   * The same model, read in slices when the document is big and its language can be (see sliceFromLength); the
   * check and every request for that version share one reading. `budget` is checked once the reading is done (the
   * reading itself serves them all, so one request's cancellation does not stop it).
   */
  async getInSlices(document: TextDocument, budget?: Budget): Promise<ParsedDocument | undefined> {
    const limits = parseLimits(this.limits());
    const languageId = this.languageOf(document);
    const service = languageId && serviceFor(languageId);
    const cached = this.open.get(document.uri);
    const current = cached && readFrom(cached, languageId, limits) && cached.version === document.version;
    if (current || !languageId || !service?.parseInSlices || lengthOf(document) < sliceFromLength) return this.get(document, budget);
    const reread = this.reread(cached, document, languageId, limits, budget);
    if (reread) {
      checkBudget(budget);
      return reread;
    }
    let reading = this.reading.get(document.uri);
    if (!reading || reading.version !== document.version || !readFrom(reading, languageId, limits)) {
      if (reading) reading.superseded = true;
      reading = this.readInSlices(document, languageId, service, limits);
      this.reading.set(document.uri, reading);
    }
    const parsed = await reading.done;
    checkBudget(budget);
    return parsed;
  }

  /** Whether a document of ours is read at once (not in slices, see sliceFromLength). */
  readsAtOnce(document: TextDocument): boolean {
    const languageId = this.languageOf(document);
    const service = languageId && serviceFor(languageId);
    return !!service && (!service.parseInSlices || lengthOf(document) < sliceFromLength);
  }

  /** Whether a document of ours is big enough to be read in slices. */
  readsInSlices(document: TextDocument): boolean {
    if (lengthOf(document) < sliceFromLength) return false;
    const languageId = this.languageOf(document);
    return !!(languageId && serviceFor(languageId)?.parseInSlices);
  }

  private readInSlices(document: TextDocument, languageId: LanguageId, service: LanguageService<unknown>, limits: ParseLimits): Reading {
    const { uri, version } = document;
    const text = document.getText();
    const reading: Reading = { version, languageId, limits, superseded: false, done: undefined! };
    const stale: Budget = { get isCancellationRequested() { return reading.superseded; } };
    reading.done = (async () => {
      try {
        const model = await service.parseInSlices!({ uri, version, text, ...limits, budget: stale }, nextTurn, sliceMs);
        await nextTurn();
        const parsed: ParsedDocument = { uri, version, languageId, service, model, positions: document, limits, inSlices: true };
        if (!reading.superseded) this.open.set(uri, parsed);
        return parsed;
      } catch (error) {
        if (error instanceof BudgetExceeded) throw error;
        const parsed = this.failed(uri, version, languageId, document, limits, error);
        if (!reading.superseded) this.open.set(uri, parsed);
        return parsed;
      } finally {
        if (this.reading.get(uri) === reading) this.reading.delete(uri);
      }
    })();
    reading.done.catch(() => undefined); // a superseded reading nobody awaits any more
    return reading;
  }

  forget(uri: string): void {
    const reading = this.reading.get(uri);
    if (reading) reading.superseded = true;
    this.reading.delete(uri);
    this.open.delete(uri);
    this.languages.delete(uri);
    this.edits?.forget(uri);
  }

  /**
   * The language a document is served as, decided once per client language id (the first line of a `.jsonl` file
   * is read again only while it is not one of ours, e.g. while a new file is still empty).
   */
  languageOf(document: TextDocument): LanguageId | undefined {
    const known = this.languages.get(document.uri);
    if (known && known.clientLanguageId === document.languageId && known.languageId) return known.languageId;
    const languageId = languageForDocument(document.uri, document.languageId, document.getText());
    this.languages.set(document.uri, { clientLanguageId: document.languageId, languageId });
    return languageId;
  }

  /** A file the editor has not opened, read through the disk limits; throws an Error that says why it was refused. */
  async readFromDisk(uri: string): Promise<ParsedDocument | undefined> {
    const path = pathOfUri(uri);
    if (!path) throw new Error('only files on disk can be previewed without opening them');
    const settings = this.limits();
    const { maxFileSizeMB, folders } = settings;
    const limits = parseLimits(settings);
    const read = await readTextFile(path, { maxBytes: maxFileSizeMB * bytesPerMB, folders, setting: 'agentTraces.files.maxSizeMB' });
    if (!read.ok) throw new Error(read.reason);
    // Same text, same model (a watcher-free cache: comparing the text costs far less than parsing it).
    if (this.fromDisk?.uri === uri && this.fromDisk.text === read.text && sameLimits(this.fromDisk.parsed.limits, limits)) return this.fromDisk.parsed;
    const languageId = languageForFile(read.path, read.text);
    const service = languageId && serviceFor(languageId);
    if (!languageId || !service) return undefined;
    // Only the latest large file is kept: each can hold hundreds of megabytes.
    this.fromDisk = undefined;
    const parsed = this.parse(uri, -1, languageId, service, read.text, new LineIndex(read.text), limits);
    this.fromDisk = { uri, text: read.text, parsed };
    return parsed;
  }

  private parse(
    uri: string, version: number, languageId: string, service: LanguageService<unknown>, text: string,
    positions: ParsedDocument['positions'], limits: ParseLimits, budget?: Budget,
  ): ParsedDocument {
    const input = { uri, version, text, ...limits, budget };
    try {
      const model = service.parse(input);
      return { uri, version, languageId, service, model, positions, limits };
    } catch (error) {
      // The request stopped, not the parse: nothing half-read is kept, and the next request tries again.
      if (error instanceof BudgetExceeded) throw error;
      return this.failed(uri, version, languageId, positions, limits, error);
    }
  }

  private failed(
    uri: string, version: number, languageId: string, positions: ParsedDocument['positions'], limits: ParseLimits, error: unknown,
  ): ParsedDocument {
    this.log(`[parse] ${uri}@${version}: ${describeError(error)}`);
    const model: FailedParse = { error: error instanceof Error ? error.message : String(error) };
    return { uri, version, languageId, service: failedParseService as LanguageService<unknown>, model, positions, limits };
  }
}

/** The editor's text as it keeps it (see EditorDocument.source); other documents' text. */
function sourceOf(document: TextDocument): TextSource {
  return document instanceof EditorDocument ? document.source() : document.getText();
}

function lengthOf(document: TextDocument): number {
  return document instanceof EditorDocument ? document.length : document.getText().length;
}

/** What a document is parsed with besides its text: a change of any reads the document again. */
type ParseLimits = Required<Pick<DocumentInput, 'maxLines'>> & Pick<DocumentInput, 'maxOutlineEntries' | 'cachedLineModels'>;

function parseLimits(limits: ModelLimits): ParseLimits {
  return { maxLines: limits.maxLines, maxOutlineEntries: limits.maxOutlineEntries, cachedLineModels: limits.cachedLineModels };
}

/** Whether a model (or a reading under way) was read as this language with these limits, its version aside. */
function readFrom(read: { languageId: string; limits: ParseLimits }, languageId: LanguageId | undefined, limits: ParseLimits): boolean {
  return read.languageId === languageId && sameLimits(read.limits, limits);
}

function sameLimits(a: ParseLimits, b: ParseLimits): boolean {
  return a.maxLines === b.maxLines && a.maxOutlineEntries === b.maxOutlineEntries && a.cachedLineModels === b.cachedLineModels;
}
