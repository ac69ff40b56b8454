import { describe, it } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { StreamMessageReader } from 'vscode-languageserver/node';
import { StdioMessageReader, type ReaderSizes } from '../../../server/src/transport/stdioMessageReader';
import { IncomingBytes } from '../../../server/src/transport/connection';
import { corpus, corpusOrSkip } from '../corpus';
import { random } from '../testing';
import { didOpen, randomDidOpen } from './messages';

/** What a reader gave for a stream of bytes, in order: each message's value, or an error's kind and message. */
type Outcome = { value: unknown } | { error: string };

const errorOf = (error: unknown): Outcome => ({ error: `${(error as Error).name}: ${(error as Error).message}` });

/** The library's decoding of one body: JSON.parse of its UTF-8 text. */
function libraryBody(body: Buffer): Outcome {
  try {
    return { value: JSON.parse(body.toString('utf8')) };
  } catch (error) {
    return errorOf(error);
  }
}

function framed(body: Buffer, header = `Content-Length: ${body.length}\r\n\r\n`): Buffer {
  return Buffer.concat([Buffer.from(header, 'ascii'), body]);
}

/**
 * Feeds `chunks` to a reader, either as a stream's chunks (`read`) or as reads into the buffers it hands out
 * (`readInto`, as stdin is read from a pipe: a read fills at most the buffer it is given).
 */
function ourOutcomes(chunks: Buffer[], sizes: ReaderSizes, direct: boolean, incoming?: IncomingBytes): Outcome[] {
  const outcomes: Outcome[] = [];
  const reader = new StdioMessageReader(incoming, sizes);
  reader.onError((error) => outcomes.push(errorOf(error)));
  reader.listen((message) => outcomes.push({ value: message }));
  for (const chunk of chunks) {
    if (!direct) {
      reader.read(Buffer.from(chunk));
      continue;
    }
    for (let at = 0; at < chunk.length;) {
      const into = reader.nextReadBuffer();
      const count = Math.min(into.length, chunk.length - at);
      chunk.copy(into, 0, at, at + count);
      reader.readInto(count, into);
      at += count;
    }
  }
  return outcomes;
}

/** The library's reader on the same chunks: what it delivers and the errors it fires, once all is in. */
async function libraryOutcomes(chunks: Buffer[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  const input = new PassThrough();
  const reader = new StreamMessageReader(input);
  reader.onError((error) => outcomes.push(errorOf(error)));
  reader.listen((message) => outcomes.push({ value: message }));
  for (const chunk of chunks) input.write(chunk);
  // It decodes each body after a turn of the event loop.
  for (let turn = 0; turn < 20; turn++) await new Promise((resolve) => setImmediate(resolve));
  return outcomes;
}

/** `bytes` cut at `cuts` (offsets in increasing order). */
function cut(bytes: Buffer, cuts: number[]): Buffer[] {
  const chunks: Buffer[] = [];
  let from = 0;
  for (const at of [...cuts, bytes.length]) {
    if (at > from) chunks.push(bytes.subarray(from, at));
    from = Math.max(from, at);
  }
  return chunks;
}

/** Small pieces and strings long from a few bytes: every place a string can be cut is cut somewhere. */
const smallSizes: ReaderSizes[] = [{ smallest: 0, piece: 1, long: 0 }, { smallest: 0, piece: 3, long: 4 }, { smallest: 0, piece: 8, long: 2 }, { smallest: 0, piece: 13, long: 16 }];

/**
 * The messages of `stream` agree with `expected` for every way of cutting it into two chunks (or every one `at`
 * allows), and into single bytes.
 */
function agreesCutAnywhere(stream: Buffer, expected: Outcome[], sizes: ReaderSizes[], where: string, at = (_: number) => true): void {
  for (const size of sizes) {
    for (const direct of [false, true]) {
      const how = `${where}, pieces of ${size.piece} from ${size.long}, ${direct ? 'read into its buffers' : 'as chunks'}`;
      for (const cutAt of stream.keys()) {
        if (at(cutAt)) assert.deepEqual(ourOutcomes(cut(stream, [cutAt]), size, direct), expected, `${how}, cut at ${cutAt}`);
      }
      assert.deepEqual(ourOutcomes(cut(stream, [...stream.keys()]), size, direct), expected, `${how}, a byte per chunk`);
    }
  }
}

/**
 * The places in a message where a cut may go wrong: in its header, at a quote, in or next to an escape or a character
 * of several bytes; and every 64th byte besides.
 */
function delicate(stream: Buffer): (at: number) => boolean {
  const bodyStart = stream.indexOf('\r\n\r\n') + 4;
  return (at) => at <= bodyStart || at % 64 === 0 || [stream[at - 2], stream[at - 1], stream[at]].some((byte) => byte === 0x22 || byte === 0x5c || byte >= 0x80);
}

const sorted = (outcomes: Outcome[]) => outcomes.map((outcome) => JSON.stringify(outcome)).sort();

describe('stdio message reader', () => {
  it('reads a real trace as JSON.parse does, however its bytes are cut into chunks', (t) => {
    if (!corpusOrSkip(t)) return;
    for (const file of ['traces/explorer-playground/16-syntax-error.json', 'evaluation/cases/xprod-1158.json']) {
      const text = readFileSync(path.join(corpus, file), 'utf8');
      // The trace sent in a didOpen (its escapes escaped again), and the trace's own JSON as a body (its \u escapes).
      for (const body of [didOpen(text), Buffer.from(text)]) {
        const stream = framed(body);
        agreesCutAnywhere(stream, [libraryBody(body)], [{ smallest: 0, piece: 64, long: 32 }], file, delicate(stream));
      }
    }
  });

  it('cuts inside escapes, surrogate pair escapes and multi-byte characters, between header and body, and inside the header', () => {
    const texts = ['"quoted" \\ back / slash \\\\" \\u00e9 \n\t', 'é ß ÿ — € ア 😀 𝄞', '\ud83d\ude00 \ud800 x \u0000\u001f'];
    for (const text of texts) {
      const body = didOpen(text);
      agreesCutAnywhere(framed(body), [libraryBody(body)], smallSizes, JSON.stringify(text));
    }
    const handWritten = Buffer.from('{"a":"\\u00E9\\u00e9\\/\\uD83D\\uDE00\\\\\\"","b":"\\u00ff\\u0100","\\u00e9 long key \\n\\t":1}');
    agreesCutAnywhere(framed(handWritten), [libraryBody(handWritten)], smallSizes, 'hand-written escapes and a long key');
  });

  it('tells a long key from a long value when the colon after it comes in a later chunk than its closing quote', () => {
    // More space after the key than a piece holds, so that the colon has not arrived when the key's last piece is read.
    const body = Buffer.from(`{"long key" ${' '.repeat(20)}\n\t : "long value"   ,  "x" :  "long value too"}`);
    agreesCutAnywhere(framed(body), [libraryBody(body)], smallSizes, 'long keys and values with space before the colon');
  });

  it('reads several messages in one chunk and a message across many, small and big alike', () => {
    const bodies = [didOpen('small'), didOpen('é\n'.repeat(40)), Buffer.from('{"jsonrpc":"2.0","id":1,"result":null}'), didOpen('😀"\\'.repeat(30))];
    const stream = Buffer.concat(bodies.map((body) => framed(body)));
    const expected = bodies.map(libraryBody);
    agreesCutAnywhere(stream, expected, [{ smallest: 100, piece: 7, long: 5 }], 'four messages');
    const next = random(11);
    for (let round = 0; round < 200; round++) {
      const cuts = [...stream.keys()].filter(() => next() < 0.05);
      for (const direct of [false, true]) assert.deepEqual(ourOutcomes(cut(stream, cuts), { smallest: 0, piece: 1 + Math.floor(next() * 20), long: Math.floor(next() * 20) }, direct), expected, `round ${round}`);
    }
  });

  it('gives the library\'s error for a broken body, at the same position, and reads the next message', () => {
    const long = 'x'.repeat(40);
    const broken = [
      `{"a":"${long}\\x${long}"}`, `{"a":"${long}\\u12g4${long}"}`, `{"a":"${long}\t${long}"}`, `{"a":"${long}\n"}`,
      `{"a":"${long}`, `{"a":"${long}\\`, `{"a":"${long}é—😀${long}`, `{"a":"é${long}\\ud800\u0001"}`, '{"a":1,}', '"', '',
    ];
    const next = didOpen('after');
    for (const text of broken) {
      const body = Buffer.from(text);
      const stream = Buffer.concat([framed(body), framed(next)]);
      agreesCutAnywhere(stream, [libraryBody(body), libraryBody(next)], smallSizes.slice(1, 3), JSON.stringify(text));
    }
    for (const bytes of [[0x80], [0xc2], [0xe0, 0x80, 0x80], [0xed, 0xa0, 0x80], [0xf0, 0x9f, 0x98], [0xff]]) {
      const body = Buffer.concat([Buffer.from(`{"text":"${long}`), Buffer.from(bytes), Buffer.from(`${long}"}`)]);
      agreesCutAnywhere(framed(body), [libraryBody(body)], smallSizes.slice(1, 3), `bytes ${bytes.map((b) => b.toString(16)).join(' ')}`);
    }
  });

  it('agrees with JSON.parse on random messages, valid and damaged, cut at random', () => {
    const next = random(5);
    for (let round = 0; round < 1500; round++) {
      const body = randomDidOpen(next, round, 60);
      const stream = framed(body);
      const cuts = [...stream.keys()].filter(() => next() < 0.1);
      const sizes = { smallest: 0, piece: 1 + Math.floor(next() * 12), long: Math.floor(next() * 12) };
      const expected = libraryBody(body);
      for (const direct of [false, true]) {
        const [outcome] = ourOutcomes(cut(stream, cuts), sizes, direct);
        // A body broken around a long string may fail at another position than the library's: the same kind of error.
        if ('error' in expected && 'error' in outcome) assert.equal(outcome.error.split(':')[0], expected.error.split(':')[0], `round ${round}`);
        else assert.deepEqual(outcome, expected, `round ${round}`);
      }
    }
  });

  it('reads headers as the library does: any order and case, a content type, and the same errors for broken ones', async () => {
    const body = didOpen('text');
    const streams = [
      framed(body, `content-length:${body.length}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n`),
      framed(body, `Content-Type: application/vscode-jsonrpc; charset=utf8\r\nContent-Length:  ${body.length}  \r\n\r\n`),
      framed(body, 'Content-Type: application/json\r\n\r\n'),
      framed(body, 'Content-Length: many\r\n\r\n'),
      framed(body, `Content-Length ${body.length}\r\n\r\n`),
      framed(body, `Content-Length: ${body.length}\r\r\n\r\n`),
      Buffer.concat([framed(Buffer.from('{}'), 'Content-Length: 0\r\n\r\n'), framed(body)]),
    ];
    for (const stream of streams) {
      // (A lone carriage return before the blank line: the library never finds the header's end, nor do we.)
      const expected = await libraryOutcomes([stream]);
      for (const sizes of [{ smallest: 0, piece: 4, long: 2 }, { smallest: 1 << 20 }]) {
        for (let at = 0; at <= stream.length; at++) {
          // The library decodes a body a turn of the event loop later, so an error in a header read meanwhile comes first.
          const ours = ourOutcomes(cut(stream, [at]), sizes, at % 2 === 0);
          assert.deepEqual(sorted(ours), sorted(expected), `${JSON.stringify(stream.toString('latin1').slice(0, 60))}, cut at ${at}`);
        }
      }
    }
  });

  it('decodes a body in the charset its Content-Type names when that is not UTF-8', () => {
    const text = 'é — 😀';
    const body = Buffer.from(JSON.stringify({ jsonrpc: '2.0', method: 'm', params: text }), 'utf16le');
    const stream = framed(body, `Content-Length: ${body.length}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-16le\r\n\r\n`);
    assert.deepEqual(ourOutcomes([stream], { smallest: 0, piece: 4, long: 2 }, true), [{ value: { jsonrpc: '2.0', method: 'm', params: text } }]);
  });

  it('tells that a big message is arriving until its body is in', () => {
    const body = didOpen('x'.repeat(300 * 1024));
    const stream = framed(body);
    const incoming = new IncomingBytes();
    const reader = new StdioMessageReader(incoming);
    const messages: unknown[] = [];
    reader.listen((message) => messages.push(message));
    for (let at = 0; at < stream.length;) {
      assert.equal(incoming.arriving(), at > 64 * 1024, `at ${at}`);
      const into = reader.nextReadBuffer();
      const count = Math.min(into.length, 60_000, stream.length - at);
      stream.copy(into, 0, at, at + count);
      reader.readInto(count, into);
      at += count;
    }
    assert.equal(incoming.arriving(), false);
    assert.deepEqual(messages, [JSON.parse(body.toString())]);
  });
});
