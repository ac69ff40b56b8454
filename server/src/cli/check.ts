import { promises as fs } from 'node:fs';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LineIndex } from '../common/lineIndex';
import { openFile, openStandardInput, type InputOptions, type LineChunk } from './streamedInputs';
import { ChunkReaders, type ChunkRead } from './chunkReaders';
import { chunkModel } from './datasetChunks';
import { detectJsonLinesFormat } from '../jsonl';
import { parseLines } from '../jsonl/model';
import { parseDatasetLine } from '../jsonl/dataset/parseLine';
import { newDatasetCarry } from '../jsonl/dataset/validate';
import { tooManyProblemsMessage } from '../common/capProblems';
import { errorCode, formatMB, isPathInside, isReportedLink, readFileHead, readTextFileBytes, walkFiles } from '../disk/files';
import { inspectPlaceName, type InspectModel } from '../inspect';
import { inspectLogHead } from '../../../shared/requests';
import type { Problem, PythonModules } from '../common/types';
import { spliceBytes } from './byteEdits';
import { fixFile, type AppliedFix, type FixResult } from './fix';
import { holdsTracesByContent, isCheckedByDefault, languageForFile, serviceFor } from '../languages';
import { isEmptyJsonLines } from '../traceFormats';
import { replaceFile } from './replaceFile';
import { isEvalArchivePath } from './readInput';
import { defaultServerSettings } from '../settings';
import { globBase, globToRegExp, hasGlobMagic } from '../common/glob';

export interface FileReport {
  path: string;
  /** `where`: for an `.eval` archive, the sample and the JSON path the line and column (in its JSON view) fall in. */
  problems: { line: number; column: number; problem: Problem; where?: string }[];
  /** Set when the file could not be checked at all (unreadable, unknown kind). */
  failure?: string;
  /** Set for a symbolic link a folder search found and did not follow: why it was not checked. */
  skipped?: string;
  /** With --fix: the fixes written to the file (positions in the text each pass fixed). */
  fixed?: AppliedFix[];
  /** With --fix: why the file was left as it was although it has problems a fix could repair. */
  notFixed?: string;
  /** With --fix: why fixes that were found were not written (the file is as it was, its problems as found in it). */
  notWritten?: string;
  /** With --fix, for a named symbolic link: the file the fixes were written to (relative to the current folder). */
  writtenTo?: string;
}

export interface CheckOptions {
  maxProblems: number;
  /** Larger files are not read; they are reported as not checked. */
  maxBytes: number;
  /** Indexes of a streamed dataset kept for the duplicate-index check (DatasetCarry.maxIndexes); absent: all. */
  maxIndexes?: number;
  /** Python module files for the imports of rule files (`--python-path`). */
  pythonModules?: PythonModules;
  /** Apply every fix that is safe without a choice and write the file when that changed it. */
  fix?: boolean;
  /** The folder the run started in: fixes write through a symbolic link only to a file inside it. */
  cwd: string;
  /** With --shard: whether this shard reads the files read whole it is given, and which lines of a dataset. */
  readsWhole?: boolean;
  keepsLine?: (line: number) => boolean;
  /** Told the bytes of a streamed file read so far. */
  onProgress?: (bytes: number) => void;
  /** Worker threads that read a streamed dataset's lines (`--jobs`); absent or 1: this thread. */
  jobs?: number;
  /** Each chunk of a streamed dataset read as a document, every line by the positioned reader: the reference the reading on workers is tested against. */
  positionedOnly?: boolean;
}

/** A file or folder named or found that could not be checked, and why. */
export interface InputError {
  path: string;
  reason: string;
}

/**
 * Expands files, folders and globs into the list of files to check (absolute paths), in a stable order, without
 * repeats: a folder gives the files `inFolders` accepts (by default those `check` reads). Folders that cannot be
 * read, and named paths that are neither files nor folders, are returned as errors. `shown` gives a file's path as
 * the user named it: absolute when the name, folder or glob was absolute, else relative to `cwd`.
 */
export async function expandArguments(
  patterns: string[], cwd: string, inFolders: (path: string) => boolean | Promise<boolean> = isCheckedInFolder,
): Promise<{ files: string[]; unmatched: string[]; errors: InputError[]; skippedLinks: InputError[]; shown: (path: string) => string }> {
  const files = new Set<string>();
  const unmatched: string[] = [];
  const errors: InputError[] = [];
  const skippedLinks: InputError[] = [];
  const absoluteNamed = new Set<string>();
  const relativePath = (path: string) => relative(cwd, path) || path;
  let absolute = false;
  const shownFound = (path: string) => (absolute ? path : relativePath(path));
  const add = (path: string) => {
    if (absolute && !files.has(path)) absoluteNamed.add(path);
    files.add(path);
  };
  const collect = async (walker: ReturnType<typeof walkFiles>, accept: (path: string) => boolean | Promise<boolean>, acceptLink: (path: string) => boolean) => {
    for await (const item of walker) {
      if (typeof item === 'string') {
        if (await accept(item)) add(item);
      } else if ('to' in item) {
        if (isReportedLink(item, acceptLink)) skippedLinks.push({ path: shownFound(item.path), reason: linkSkipped });
      } else {
        errors.push({ path: shownFound(item.path), reason: item.reason });
      }
    }
  };
  for (const pattern of patterns) {
    const before = files.size;
    const errorsBefore = errors.length;
    absolute = isAbsolute(pattern);
    const normalized = pattern.split(sep).join('/');
    if (hasGlobMagic(normalized)) {
      const base = resolve(cwd, globBase(normalized));
      const matcher = globToRegExp(resolve(cwd, normalized).split(sep).join('/'));
      const baseStat = await fs.stat(base).catch(() => undefined);
      // A base folder that does not exist matches nothing; one that cannot be read is an error.
      const matches = (path: string) => matcher.test(path.split(sep).join('/'));
      if (baseStat) await collect(walkFiles(base), matches, matches);
    } else {
      const path = resolve(cwd, pattern);
      const stat = await fs.stat(path).catch((error) => (errorCode(error) === 'ENOENT' ? undefined : error));
      if (stat instanceof Error) errors.push({ path: pattern, reason: `cannot read: ${errorCode(stat)}` });
      else if (stat?.isDirectory()) await collect(walkFiles(path), inFolders, (found) => inFolders === isCheckedInFolder ? isCheckedByDefault(found) : inFolders(found) === true);
      else if (stat?.isFile()) add(path);
      else if (stat) errors.push({ path: pattern, reason: 'not a regular file or folder' });
    }
    if (files.size === before && errors.length === errorsBefore) unmatched.push(pattern);
  }
  return { files: [...files], unmatched, errors, skippedLinks, shown: (path) => (absoluteNamed.has(path) ? path : relativePath(path)) };
}

/**
 * What a folder search reads by default: the files named like traces and rules (isCheckedByDefault), and the `.json`
 * files whose beginning says they are Inspect AI logs (Inspect names its logs after the run, never `*.trace.json`),
 * files of OpenTelemetry spans (the collector's file exporter and any-agent name them as their users say), or
 * Anthropic Messages or OpenAI Responses conversations (saved request and response bodies), as the workspace's walks
 * find them (languages.ts). Other `.json` files cost a look at their first 64 KB.
 */
export async function isCheckedInFolder(path: string): Promise<boolean> {
  if (isCheckedByDefault(path)) return true;
  if (isEvalArchivePath(path)) return (await readFileHead(path, 4)) === zipStart;
  if (!path.toLowerCase().endsWith('.json')) return false;
  return holdsTracesByContent(await readFileHead(path, inspectLogHead));
}

/** How a zip archive (an Inspect `.eval` log) begins. */
const zipStart = 'PK\u0003\u0004';

const linkSkipped = 'a symbolic link (a folder search does not follow links; name it to check what it points to)';

/**
 * `shownPath`: the file's path as reports print it (as the user named it, `expandArguments`' `shown`). A dataset is
 * checked as a stream (unless it is to be fixed, which rewrites it whole); undefined when `readsWhole` is false and
 * the file is not a dataset (another shard checks it). An Inspect `.eval` archive is checked as the JSON log it
 * holds, read-only (there is no text to write back).
 */
export async function checkFile(path: string, options: CheckOptions, shownPath: string): Promise<FileReport | undefined> {
  const archive = isEvalArchivePath(path);
  if (options.fix && !archive) {
    if (options.readsWhole === false) return undefined;
    const read = await readTextFileBytes(path, { maxBytes: options.maxBytes, setting: '--max-file-size' });
    if (!read.ok) return { path: shownPath, problems: [], failure: read.reason };
    return checkRead(path, read, options, shownPath);
  }
  const opened = await openFile(path, inputOptions(path, options));
  if (!opened.ok) return options.readsWhole === false ? undefined : { path: shownPath, problems: [], failure: opened.reason };
  if (opened.kind === 'left') return undefined;
  if (opened.kind === 'lines') return checkLines(path, opened.chunks, options, shownPath);
  return checkRead(path, { path, bytes: Buffer.from(opened.text, 'utf8') }, archive ? { ...options, fix: false } : options, shownPath);
}

/**
 * Standard input (`-`), checked as a file of the name `--stdin-name` gives (its language comes from that name, and
 * for a `.jsonl` from the first line, as a file's would); never fixed, since there is no file to write.
 */
export async function checkStandardInput(name: string, options: CheckOptions, shownPath: string): Promise<FileReport | undefined> {
  const path = resolve(options.cwd, name);
  const opened = await openStandardInput(inputOptions(path, options));
  if (!opened.ok) return options.readsWhole === false ? undefined : { path: shownPath, problems: [], failure: opened.reason };
  if (opened.kind === 'left') return undefined;
  if (opened.kind === 'lines') return checkLines(path, opened.chunks, options, shownPath);
  return checkRead(path, { path, bytes: Buffer.from(opened.text, 'utf8') }, { ...options, fix: false }, shownPath);
}

/** A dataset (JSON Lines of traces, by its name and first line) is streamed; any other file is read whole. */
function inputOptions(path: string, options: CheckOptions): InputOptions {
  return {
    maxBytes: options.maxBytes,
    streams: (head) => languageForFile(path, head) === 'agent-trace-jsonl' && detectJsonLinesFormat(head) === 'dataset',
    readsWhole: options.readsWhole,
    keepsLine: options.keepsLine,
  };
}

/**
 * A dataset checked chunk by chunk, each chunk's lines numbered as in the file: every line's own checks (syntax, the
 * trace's checks, its annotations) as in the editor, and the rules between lines (one metadata row, first; one kind
 * of trace; unique indexes) over the whole file, through what the chunks before hold (DatasetCarry). The lines are
 * read on `options.jobs` workers (datasetChunks.ts), the rules between lines applied here in the file's order, so
 * the result is the same for any number of workers. The problems kept are those `capProblems` keeps of the whole.
 */
async function checkLines(path: string, chunks: AsyncIterable<LineChunk>, options: CheckOptions, shownPath: string): Promise<FileReport> {
  const service = serviceFor('agent-trace-jsonl')!;
  const uri = pathToFileURL(path).toString();
  const settings = { ...defaultServerSettings, maxProblems: Number.MAX_SAFE_INTEGER };
  const kept = new KeptProblems(options.maxProblems);
  const datasetCarry = newDatasetCarry(options.maxIndexes);
  const readers = new ChunkReaders(options.jobs ?? 1);
  const checkChunk = (chunk: LineChunk, { read, text }: ChunkRead) => {
    const doc = () => ({ uri, version: 0, text: text(), firstLine: chunk.firstLine - 1, maxLines: Number.MAX_SAFE_INTEGER });
    const model = chunkModel(uri, text, chunk.firstLine, read)
      ?? (options.positionedOnly && readsDatasetLines(text()) ? parseLines(doc(), parseDatasetLine) : service.parse(doc()));
    const found = service.validate(model, { settings, pythonModules: options.pythonModules, datasetCarry });
    const lines = found.length > 0 ? new LineIndex(text()) : undefined;
    const overlong = chunk.overlong.map((line) => ({
      line, column: 1, problem: { span: { start: 0, end: 0 }, severity: 'error' as const, code: 'jsonl/line-too-long', message: `Line ${line} was not read: it is over the ${formatMB(options.maxBytes)} limit (--max-file-size)` },
    }));
    const placed = found.map((problem) => {
      const position = lines!.positionAt(problem.span.start);
      return { line: position.line + chunk.firstLine, column: position.character + 1, problem };
    });
    for (const entry of [...placed, ...overlong].sort((a, b) => a.line - b.line || a.column - b.column)) kept.add(entry);
    options.onProgress?.(chunk.bytesRead);
  };
  // Chunks are read ahead on the workers, at most two per worker, and finished here in the file's order. A chunk that
  // fails ends the check there; one that cannot be read ends it after the chunks before it, as without read-ahead.
  const ahead: Promise<{ chunk: LineChunk; read: ChunkRead }>[] = [];
  const most = Math.max(1, options.jobs ?? 1) * 2;
  const finishNext = async () => {
    const next = await ahead.shift()!;
    checkChunk(next.chunk, next.read);
  };
  const iterator = chunks[Symbol.asyncIterator]();
  try {
    let unread: { error: unknown } | undefined;
    for (;;) {
      let step: IteratorResult<LineChunk>;
      try {
        step = await iterator.next();
      } catch (error) {
        unread = { error };
        break;
      }
      if (step.done) break;
      const chunk = step.value;
      const reading: Promise<ChunkRead> = options.positionedOnly ? Promise.resolve({ read: { whole: true }, text: () => chunk.text }) : readers.read(chunk);
      const read = reading.then((result) => ({ chunk, read: result }));
      // Handled when its turn comes; a rejection seen before then is not an unhandled one.
      read.catch(() => undefined);
      ahead.push(read);
      while (ahead.length >= most) await finishNext();
    }
    while (ahead.length > 0) await finishNext();
    if (unread) throw unread.error;
  } catch (error) {
    await Promise.resolve(iterator.return?.()).catch(() => undefined);
    return { path: shownPath, problems: kept.problems(), failure: `not checked: ${errorCode(error)}` };
  } finally {
    readers.close();
  }
  return { path: shownPath, problems: kept.problems() };
}

/** Whether the service reads the text's lines with the dataset's reader (not a session's, not a rollout's). */
function readsDatasetLines(text: string): boolean {
  const format = detectJsonLinesFormat(text);
  return format !== 'claude-code' && format !== 'codex';
}

const severityRank = { error: 0, warning: 1, information: 2, hint: 3 } as const;

/**
 * At most `limit` problems of a stream, chosen as capProblems chooses (the most severe, then the earliest), with
 * the same notice when more were found: a file's problems without holding them all.
 */
class KeptProblems {
  private readonly kept: FileReport['problems'] = [];
  private found = 0;

  constructor(private readonly limit: number) {}

  add(entry: FileReport['problems'][number]): void {
    this.found++;
    if (this.kept.length < this.limit) {
      this.kept.push(entry);
      return;
    }
    // The entry kept last among the least severe is the one the whole list's sort would drop first.
    let worst = -1;
    for (let i = 0; i < this.kept.length; i++) {
      if (worst < 0 || severityRank[this.kept[i].problem.severity] >= severityRank[this.kept[worst].problem.severity]) worst = i;
    }
    if (severityRank[entry.problem.severity] < severityRank[this.kept[worst].problem.severity]) {
      this.kept.splice(worst, 1);
      this.kept.push(entry);
    }
  }

  problems(): FileReport['problems'] {
    if (this.found <= this.limit) return this.kept;
    const notice: Problem = { span: { start: 0, end: 1 }, severity: 'warning', code: 'jsonl/too-many-problems', message: tooManyProblemsMessage(this.limit, this.found) };
    return [...this.kept, { line: 1, column: 1, problem: notice }];
  }
}

async function checkRead(path: string, read: { path: string; bytes: Buffer }, options: CheckOptions, shownPath: string): Promise<FileReport> {
  const text = read.bytes.toString('utf8');
  const languageId = languageForFile(path, text);
  const service = languageId && serviceFor(languageId);
  if (!service) {
    return isEmptyJsonLines(path, text)
      ? { path: shownPath, problems: [] }
      : { path: shownPath, problems: [], failure: 'not checked: not a trace or rule file (by its name, or for .jsonl by its first line)' };
  }
  const uri = pathToFileURL(path).toString();
  const settings = { ...defaultServerSettings, maxProblems: options.maxProblems };
  let found: Problem[];
  let fixes: Pick<FileReport, 'fixed' | 'notFixed' | 'notWritten' | 'writtenTo'> = {};
  let checkedText = text;
  let model: unknown;
  try {
    if (options.fix) {
      const result = fixFile(service, uri, text, { settings, pythonModules: options.pythonModules });
      fixes = { fixed: result.fixed, notFixed: result.notFixed };
      if (result.passes.length === 0) {
        model = result.model;
      } else {
        const written = await writeFixes(path, read, result, options.cwd);
        if (written.ok) {
          model = result.model;
          checkedText = result.text;
          if (written.linkTarget) fixes.writtenTo = relative(options.cwd, written.linkTarget);
        } else {
          fixes = { fixed: [], notWritten: written.reason };
        }
      }
    }
    model ??= service.parse({ uri, version: 0, text: checkedText });
    found = service.validate(model, { settings, pythonModules: options.pythonModules });
  } catch (error) {
    return { path: shownPath, problems: [], failure: `not checked: the checker failed on this file (${(error as Error).message})` };
  }
  const checked = report(shownPath, checkedText, found, fixes);
  if (isEvalArchivePath(path) && languageId === 'agent-trace-inspect') {
    const log = model as InspectModel;
    for (const entry of checked.problems) {
      const where = inspectPlaceName(log, entry.problem.span.start);
      if (where) entry.where = where;
    }
  }
  return checked;
}

/**
 * The passes' edits spliced into the bytes read, written in one step over the file read. A named symbolic link is
 * written through only to a file inside the current folder: one pointing elsewhere is left, and the report says so.
 */
async function writeFixes(
  path: string, read: { path: string; bytes: Buffer }, result: FixResult, cwd: string,
): Promise<{ ok: true; linkTarget?: string } | { ok: false; reason: string }> {
  const named = await fs.lstat(path).catch(() => undefined);
  if (named?.isSymbolicLink()) {
    const folder = await fs.realpath(cwd).catch(() => cwd);
    if (!isPathInside(folder, read.path)) {
      return { ok: false, reason: `it is a symbolic link to ${read.path}, outside the current folder; name that file to fix it there` };
    }
  }
  let bytes: Buffer = read.bytes;
  try {
    for (const edits of result.passes) bytes = spliceBytes(bytes, edits);
  } catch {
    bytes = Buffer.alloc(0);
  }
  // The spliced bytes must read as the fixed text: an edit next to bytes that are not UTF-8 could join them into a character.
  if (bytes.toString('utf8') !== result.text) {
    return { ok: false, reason: 'the fixes would change bytes next to them that are not UTF-8; the file is unchanged' };
  }
  const replaced = await replaceFile(read.path, read.bytes, bytes);
  return replaced.ok ? { ok: true, linkTarget: named?.isSymbolicLink() ? read.path : undefined } : replaced;
}

function report(path: string, text: string, found: Problem[], fixes: Pick<FileReport, 'fixed' | 'notFixed' | 'notWritten' | 'writtenTo'>): FileReport {
  const lines = new LineIndex(text);
  const problems = found.map((problem) => {
    const position = lines.positionAt(problem.span.start);
    return { line: position.line + 1, column: position.character + 1, problem };
  });
  problems.sort((a, b) => a.line - b.line || a.column - b.column);
  return { path, problems, ...fixes };
}
