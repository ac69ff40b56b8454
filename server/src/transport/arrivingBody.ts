/** A stretch of a body's bytes decoded as part of a long string, and the length of its text in UTF-16 code units. */
interface DecodedStretch {
  start: number;
  end: number;
  sourceLength: number;
}

/**
 * A message body whose bytes arrive in chunks: a buffer of the body's full length, filled from its start, and the
 * part of it filled so far. The reader reads stdin straight into the part not yet filled (`unfilled`), or copies
 * chunks in (`fill`). A body the reader owns may be written over by the strings decoded from it (`DecodedString`).
 */
export class ArrivingBody {
  private filled = 0;
  private filledBytes: Buffer;
  /** The stretches decoded so far, in order: the bytes written over are among them. */
  private readonly decoded: DecodedStretch[] = [];

  constructor(private readonly bytes: Buffer, readonly writable: boolean) {
    this.filledBytes = bytes.subarray(0, 0);
  }

  /** A body already whole, which stays as it is. */
  static whole(bytes: Buffer): ArrivingBody {
    const body = new ArrivingBody(bytes, false);
    body.filled = bytes.length;
    body.filledBytes = bytes;
    return body;
  }

  /** Copies the bytes of `chunk` from `from` on that the body still lacks: how many it took. */
  fill(chunk: Buffer, from: number): number {
    const taken = Math.min(chunk.length - from, this.bytes.length - this.filled);
    chunk.copy(this.bytes, this.filled, from, from + taken);
    this.filledWith(taken);
    return taken;
  }

  /** The part of the body still to come, for stdin to be read into. */
  unfilled(): Buffer {
    return this.bytes.subarray(this.filled);
  }

  /** `count` more bytes were read into `unfilled()`. */
  filledWith(count: number): void {
    this.filled += count;
    this.filledBytes = this.bytes.subarray(0, this.filled);
  }

  get complete(): boolean {
    return this.filled === this.bytes.length;
  }

  /** The body's length, all of it arrived or not. */
  get length(): number {
    return this.bytes.length;
  }

  /** The bytes arrived so far (all of them once the body is complete), some perhaps written over. */
  get arrived(): Buffer {
    return this.filledBytes;
  }

  /** The long string whose contents start at `start` is decoded up to `end`, from a text of `sourceLength` units. */
  decodedUpTo(start: number, end: number, sourceLength: number): void {
    const last = this.decoded.at(-1);
    if (last?.start === start) {
      last.end = end;
      last.sourceLength += sourceLength;
    } else {
      this.decoded.push({ start, end, sourceLength });
    }
  }

  /**
   * The body's text as JSON.parse would read it to find what is wrong with it: where its bytes may have been written
   * over, a string's text decoded without fault is stood in for by as many plain characters, so that JSON.parse fails
   * with the same error at the same position as on the bytes as they came.
   */
  asReceived(): string {
    if (!this.writable) return this.filledBytes.toString('utf8');
    const parts: string[] = [];
    let copiedTo = 0;
    for (const stretch of this.decoded) {
      parts.push(this.filledBytes.toString('utf8', copiedTo, stretch.start), 'a'.repeat(stretch.sourceLength));
      copiedTo = stretch.end;
    }
    parts.push(this.filledBytes.toString('utf8', copiedTo));
    return parts.join('');
  }
}

/**
 * Where the long strings of a body are decoded: one byte per code unit while they all fit in Latin-1, then two
 * (UTF-16LE) from the first piece that does not, the units written so far widened. A Latin-1 string is written over
 * the body's own bytes where the body allows it, from its opening quote on: a piece is written once JSON.parse has
 * read it, and no character takes fewer bytes in the body than one, so the string never overtakes the bytes still to
 * read (and a second buffer, as big as the body, is touched only for a string beyond Latin-1).
 */
export class DecodedString {
  private buffer: Buffer;
  private offset = 0;
  private ownBuffer: Buffer | undefined;
  private isWide = false;
  units = 0;

  constructor(private readonly body: ArrivingBody) {
    this.buffer = body.arrived;
  }

  /** Starts a string whose contents start at `at` in the body. */
  start(at: number): void {
    this.isWide = false;
    this.units = 0;
    if (this.body.writable) {
      this.buffer = this.body.arrived;
      this.offset = at;
    } else {
      this.buffer = this.own();
      this.offset = 0;
    }
  }

  append(piece: string): void {
    if (!this.isWide && beyondLatin1.test(piece)) {
      // Copied out before it is written back, so the two ranges may overlap.
      const latin1 = this.buffer.toString('latin1', this.offset, this.offset + this.units);
      this.buffer = this.own();
      this.offset = 0;
      this.buffer.write(latin1, 0, 'utf16le');
      this.isWide = true;
    }
    if (this.isWide) {
      this.buffer.write(piece, 2 * this.units, 'utf16le');
    } else {
      // The body's bytes arrived so far: the piece lies within them.
      if (this.body.writable) this.buffer = this.body.arrived;
      this.buffer.write(piece, this.offset + this.units, 'latin1');
    }
    this.units += piece.length;
  }

  toString(units: number): string {
    return this.isWide ? this.buffer.toString('utf16le', 0, 2 * units) : this.buffer.toString('latin1', this.offset, this.offset + units);
  }

  private own(): Buffer {
    this.ownBuffer ??= Buffer.allocUnsafeSlow(2 * this.body.length);
    return this.ownBuffer;
  }
}

const beyondLatin1 = /[^\u0000-\u00ff]/;
