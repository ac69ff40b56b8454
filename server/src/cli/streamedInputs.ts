import { createReadStream, promises as fs } from 'node:fs';
import { errorCode, formatMB } from '../disk/files';
import { isEvalArchivePath, readInputText } from './readInput';

/**
 * How the commands read their inputs: a JSON Lines file whose lines are traces (a dataset) is read as a stream, in
 * chunks of whole lines, so that memory depends on the largest line and not on the file; every other input is read
 * whole, up to --max-file-size. The one place that decides how an input is read (a file or standard input).
 */

/** Whole lines of a streamed input, in the file's order. */
export interface LineChunk {
  /** The lines, each ended by a line break (the last one of the input may not be); lines left out are empty. */
  readonly text: string;
  /** The same lines as UTF-8 bytes, as read: what a worker is handed, to decode there (`text` decodes on first use). */
  bytes: Uint8Array;
  /** 1-based number of the chunk's first line in the input. */
  firstLine: number;
  /** Bytes of the input read up to the end of this chunk (for the progress line). */
  bytesRead: number;
  /** Lines longer than the limit, by number: left out of `text` (an empty line stands for each). */
  overlong: number[];
}

export type OpenedInput =
  | { ok: false; reason: string }
  | { ok: true; kind: 'whole'; text: string }
  | { ok: true; kind: 'lines'; head: string; size?: number; chunks: AsyncIterable<LineChunk> }
  /** Not read: an input that would be read whole, which `readsWhole: false` leaves to another shard. */
  | { ok: true; kind: 'left' };

export interface InputOptions {
  /** A whole input larger than this is refused; a streamed line longer than this is left out and reported. */
  maxBytes: number;
  /** Whether an input of this name, whose text begins with `head` (at least its first line), is read as a stream. */
  streams: (head: string) => boolean;
  /** With --shard: whether line N (1-based) of a streamed input is read; the others are left out as empty lines. */
  keepsLine?: (line: number) => boolean;
  /** False when an input read whole is not wanted (another shard takes it): only its first line is read. */
  readsWhole?: boolean;
}

/**
 * Bytes of lines handed over at once: enough to keep a worker busy between two messages (about 30 traces of 8 KB),
 * small enough to bound memory (each chunk in flight is held as bytes here and as text in its worker; 1 MB chunks
 * cost about 80 MB more at the peak).
 */
export const chunkBytes = 256 * 1024;
/** Bytes read from a file at once: each read is a new buffer, held until the next collection. */
const readBytes = 64 * 1024;

/** A file, streamed when `options.streams` says so from its first line, else read whole (binary files refused). */
export async function openFile(path: string, options: InputOptions): Promise<OpenedInput> {
  let size: number;
  try {
    const stat = await fs.stat(path);
    if (!stat.isFile()) return { ok: false, reason: 'refused: not a regular file' };
    size = stat.size;
  } catch (error) {
    return { ok: false, reason: `cannot read: ${errorCode(error)}` };
  }
  // An Inspect .eval archive is a zip: read whole, as the JSON log it holds.
  const head = isEvalArchivePath(path) ? undefined : await readFirstLines(createReadStream(path, { highWaterMark: readBytes }), options.maxBytes).catch(() => undefined);
  if (head && !head.binary && options.streams(head.text)) {
    return { ok: true, kind: 'lines', head: head.text, size, chunks: lineChunks(createReadStream(path, { highWaterMark: readBytes }), options) };
  }
  if (options.readsWhole === false) return { ok: true, kind: 'left' };
  const read = await readInputText(path, { maxBytes: options.maxBytes, setting: '--max-file-size' });
  return read.ok ? { ok: true, kind: 'whole', text: read.text } : read;
}

/** Standard input (`-`), as a file; a terminal is refused rather than waited on. */
export function openStandardInput(options: InputOptions): Promise<OpenedInput> {
  if (process.stdin.isTTY) return Promise.resolve({ ok: false, reason: 'standard input is a terminal: pipe a file into it (agent-traces check - < file), or name the file' });
  return openStream(process.stdin as AsyncIterable<Buffer>, options);
}

/** A stream, as a file: streamed when its first line says so, else read whole up to the limit. */
export async function openStream(stream: AsyncIterable<Buffer>, options: InputOptions): Promise<OpenedInput> {
  const iterator = stream[Symbol.asyncIterator]();
  const head = await readFirstLines({ [Symbol.asyncIterator]: () => ({ next: () => iterator.next() }) }, options.maxBytes);
  const rest: AsyncIterable<Buffer> = {
    async *[Symbol.asyncIterator]() {
      yield* head.buffers;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
    },
  };
  if (!head.binary && options.streams(head.text)) return { ok: true, kind: 'lines', head: head.text, chunks: lineChunks(rest, options) };
  if (options.readsWhole === false) {
    await iterator.return?.();
    return { ok: true, kind: 'left' };
  }
  const buffers: Buffer[] = [];
  let size = 0;
  for await (const buffer of rest) {
    size += buffer.length;
    if (size > options.maxBytes) {
      await iterator.return?.();
      return { ok: false, reason: `refused: standard input is over the ${formatMB(options.maxBytes)} limit (setting --max-file-size)` };
    }
    buffers.push(buffer);
  }
  const bytes = Buffer.concat(buffers);
  if (bytes.subarray(0, 8192).includes(0)) return { ok: false, reason: 'refused: binary input (NUL bytes), not text' };
  return { ok: true, kind: 'whole', text: bytes.toString('utf8') };
}

/**
 * The beginning of a stream up to the end of its first line that is not blank (or its end, or `maxBytes`): what
 * deciding how to read it needs. The buffers read are handed back, so that a stream is not read twice.
 */
async function readFirstLines(stream: AsyncIterable<Buffer>, maxBytes: number): Promise<{ text: string; buffers: Buffer[]; binary: boolean }> {
  const buffers: Buffer[] = [];
  let size = 0;
  for await (const buffer of stream) {
    buffers.push(buffer);
    size += buffer.length;
    if (size >= maxBytes || endsFirstLine(Buffer.concat(buffers))) break;
  }
  const bytes = Buffer.concat(buffers);
  return { text: bytes.toString('utf8'), buffers, binary: bytes.subarray(0, 8192).includes(0) };
}

function endsFirstLine(bytes: Buffer): boolean {
  for (let start = 0, end = bytes.indexOf(10); end >= 0; start = end + 1, end = bytes.indexOf(10, start)) {
    if (bytes.subarray(start, end).some((byte) => byte !== 32 && byte !== 9 && byte !== 13)) return true;
  }
  return false;
}

/**
 * The stream's lines in chunks of about `chunkBytes`, split only at line breaks (a UTF-8 character never is). A line
 * longer than `maxBytes` is dropped as it is read (never held whole) and its number reported with the chunk.
 */
export async function* lineChunks(stream: AsyncIterable<Buffer>, options: Pick<InputOptions, 'maxBytes' | 'keepsLine'>): AsyncGenerator<LineChunk> {
  let parts: Buffer[] = [];
  let partsBytes = 0;
  /** The line being read, not yet ended: its bytes so far. */
  let open: Buffer[] = [];
  let openBytes = 0;
  let overlongOpen = false;
  let line = 1;
  let firstLine = 1;
  let bytesRead = 0;
  let overlong: number[] = [];
  const take = (bytes: Buffer) => {
    parts.push(bytes);
    partsBytes += bytes.length;
  };
  const endLine = (tail: Buffer) => {
    if (overlongOpen) overlong.push(line);
    if (overlongOpen || (options.keepsLine && !options.keepsLine(line))) take(newline);
    else {
      for (const bytes of open) take(bytes);
      take(tail);
    }
    open = [];
    openBytes = 0;
    overlongOpen = false;
    line++;
  };
  const chunk = (): LineChunk => {
    const bytes = Buffer.concat(parts, partsBytes);
    let text: string | undefined;
    const made = { get text() { return (text ??= bytes.toString('utf8')); }, bytes, firstLine, bytesRead, overlong };
    parts = [];
    partsBytes = 0;
    overlong = [];
    firstLine = line;
    return made;
  };
  for await (const buffer of stream) {
    bytesRead += buffer.length;
    let start = 0;
    for (let end = buffer.indexOf(10); end >= 0; start = end + 1, end = buffer.indexOf(10, start)) {
      endLine(buffer.subarray(start, end + 1));
    }
    if (start < buffer.length && !overlongOpen) {
      open.push(buffer.subarray(start));
      openBytes += buffer.length - start;
      if (openBytes > options.maxBytes) {
        open = [];
        overlongOpen = true;
      }
    }
    if (partsBytes >= chunkBytes) yield chunk();
  }
  if (openBytes > 0 || overlongOpen) {
    if (overlongOpen) overlong.push(line);
    else if (!options.keepsLine || options.keepsLine(line)) for (const bytes of open) take(bytes);
  }
  if (partsBytes > 0 || overlong.length > 0) yield chunk();
}

const newline = Buffer.from('\n');
