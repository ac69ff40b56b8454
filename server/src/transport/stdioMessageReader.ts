import { AbstractMessageReader, Disposable, type DataCallback, type Message, type MessageReader } from 'vscode-languageserver/node';
import { ArrivingBody } from './arrivingBody';
import { bodyDecoding, decodesInPieces, smallestDecodedFromBytes, type BodyDecoding } from './messageDecoder';

/** What the reader tells of the bytes it reads and the bodies it completes (`IncomingBytes` in connection.ts). */
export interface ReadBytes {
  read(bytes: number): void;
  decoded(bodyBytes: number): void;
}

/** Sizes the tests make small: the body from which it is decoded as it arrives, and its decoding's pieces. */
export interface ReaderSizes {
  smallest: number;
  piece?: number;
  long?: number;
}

const carriageReturn = 0x0d;
const lineFeed = 0x0a;

/**
 * Reads JSON-RPC messages from stdin, as the library's `StreamMessageReader` does (the same headers, values and
 * errors), but decodes a big body while its bytes arrive rather than after the last of them: a document's text comes
 * in 64 KB reads over tens of milliseconds, which the server otherwise spends waiting, and decoding it takes as long
 * again. At the body's end only its last piece and the small rest of the message are left to decode. A pipe is read
 * straight into the body's buffer (`nextReadBuffer`, `readInto`); other inputs come as a stream's chunks (`read`).
 */
export class StdioMessageReader extends AbstractMessageReader implements MessageReader {
  private callback: DataCallback | undefined;
  /** The header read so far, and how far into its terminating blank line (the library's four states). */
  private header: Buffer[] = [];
  private headerEnd = 0;
  private body: { arriving: ArrivingBody; decoding?: BodyDecoding; charset?: TextDecoder } | undefined;

  /** Where stdin is read into between bodies, and a big body's part still to come while it arrives. */
  private readonly between = Buffer.allocUnsafe(64 * 1024);
  private readingInto: Buffer | undefined;

  constructor(
    private readonly bytes: ReadBytes = { read: () => undefined, decoded: () => undefined },
    private readonly sizes: ReaderSizes = { smallest: smallestDecodedFromBytes },
  ) {
    super();
  }

  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    return Disposable.create(() => {
      this.callback = undefined;
    });
  }

  /** The input failed: the connection hears of it as the library's reader tells it. */
  inputError(error: Error): void {
    this.fireError(error);
  }

  /**
   * The buffer the next read from the input goes into: the rest of a big body while it arrives, so that its bytes
   * land where they are decoded without a copy (each copy of a document's size costs its page faults again).
   */
  nextReadBuffer(): Buffer {
    const body = this.body;
    this.readingInto = body?.decoding && !body.arriving.complete ? body.arriving.unfilled() : this.between;
    return this.readingInto;
  }

  /** `count` bytes were read into `buffer`, the last `nextReadBuffer()`. */
  readInto(count: number, buffer: Buffer): void {
    if (buffer !== this.readingInto || buffer === this.between || !this.body) {
      this.read(buffer.subarray(0, count));
      return;
    }
    this.bytes.read(count);
    this.body.arriving.filledWith(count);
    this.bodyArrived(this.body);
  }

  /** Reads one chunk: the headers and bodies it completes, and as much of a big body's decoding as it allows. */
  read(chunk: Buffer): void {
    this.bytes.read(chunk.length);
    let at = 0;
    while (at < chunk.length) at = this.body === undefined ? this.readHeader(chunk, at) : this.readBody(chunk, at);
  }

  /** Reads header bytes from `at` up to the blank line that ends them, and starts the body: where it stopped. */
  private readHeader(chunk: Buffer, at: number): number {
    let end = at;
    // The library's state machine, byte by byte: a header's end is found as it finds it.
    while (end < chunk.length && this.headerEnd < 4) {
      const byte = chunk[end++];
      if (byte === carriageReturn) this.headerEnd = this.headerEnd === 0 ? 1 : this.headerEnd === 2 ? 3 : 0;
      else if (byte === lineFeed) this.headerEnd = this.headerEnd === 1 ? 2 : this.headerEnd === 3 ? 4 : 0;
      else this.headerEnd = 0;
    }
    // Copied: the chunk's buffer is read into again.
    this.header.push(Buffer.from(chunk.subarray(at, end)));
    if (this.headerEnd < 4) return end;
    const text = Buffer.concat(this.header).toString('ascii');
    this.header = [];
    this.headerEnd = 0;
    // A broken header is an error, and the bytes after it are read as the next header, as the library reads them.
    this.settle(() => this.startBody(headerFields(text)));
    return end;
  }

  private startBody(fields: Map<string, string>): void {
    const contentLength = fields.get('content-length');
    if (!contentLength) throw new Error(`Header must provide a Content-Length property.\n${JSON.stringify(Object.fromEntries(fields))}`);
    const length = parseInt(contentLength);
    if (isNaN(length) || length < 0) throw new Error(`Content-Length value must be a number. Got ${contentLength}`);
    const charset = otherCharset(fields.get('content-type'));
    const big = length >= this.sizes.smallest && decodesInPieces && !charset;
    const arriving = new ArrivingBody(big ? Buffer.allocUnsafeSlow(length) : Buffer.allocUnsafe(length), big);
    this.body = { arriving, decoding: big ? bodyDecoding(arriving, this.sizes.piece, this.sizes.long) : undefined, charset };
    if (length === 0) this.finishBody();
  }

  /** Takes the body's bytes from `at`, decodes what they allow, and delivers the message once it is whole. */
  private readBody(chunk: Buffer, at: number): number {
    const body = this.body!;
    const taken = body.arriving.fill(chunk, at);
    this.bodyArrived(body);
    return at + taken;
  }

  private bodyArrived(body: NonNullable<StdioMessageReader['body']>): void {
    if (body.arriving.complete) {
      this.settle(() => this.finishBody());
    } else if (body.decoding) {
      try {
        body.decoding.next();
      } catch {
        // Decoding fails only once the body is whole (a broken one is decoded whole, the library's way); should it
        // fail sooner, the whole body is decoded the library's way once it is in, for its value or its error.
        body.decoding = undefined;
      }
    }
  }

  /** Runs `step`, an error it throws fired as the reader's error, as the library's reader fires it. */
  private settle(step: () => unknown): void {
    try {
      step();
    } catch (error) {
      this.fireError(error);
    }
  }

  private finishBody(): void {
    const { arriving, decoding, charset } = this.body!;
    this.body = undefined;
    this.bytes.decoded(arriving.length);
    let message: Message;
    if (decoding) {
      const done = decoding.next();
      if (!done.done) throw new Error('The decoding of a whole message body asked for more of it.');
      message = done.value as Message;
    } else {
      message = JSON.parse(charset ? charset.decode(arriving.arrived) : arriving.asReceived()) as Message;
    }
    this.callback?.(message);
  }
}

/** A header's fields as the library reads them: `Key: value` lines, keys in lower case, values trimmed. */
function headerFields(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  const lines = text.split('\r\n');
  for (const line of lines.slice(0, -2)) {
    const colon = line.indexOf(':');
    if (colon === -1) throw new Error(`Message header must separate key and value using ':'\n${line}`);
    fields.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim());
  }
  return fields;
}

/**
 * The decoder of a Content-Type's charset when it names one other than UTF-8 that the platform knows (LSP allows
 * `utf8` for UTF-8 too). The library reads no Content-Type and decodes every body as UTF-8, which is what a charset
 * it does not know gets here.
 */
function otherCharset(contentType: string | undefined): TextDecoder | undefined {
  const charset = contentType && /;\s*charset\s*=\s*"?([^\s;"]+)/i.exec(contentType)?.[1];
  if (!charset || /^utf-?8$/i.test(charset)) return undefined;
  try {
    return new TextDecoder(charset);
  } catch {
    return undefined;
  }
}
