import { format } from 'node:util';
import { Socket, type OnReadOpts, type SocketConstructorOpts } from 'node:net';
import {
  createConnection, ProposedFeatures, StreamMessageReader, StreamMessageWriter, type Connection, type MessageReader,
} from 'vscode-languageserver/node';
import { decodeMessageBody } from './messageDecoder';
import { StdioMessageReader } from './stdioMessageReader';

/**
 * The server's connection. Over stdio its messages are read by `StdioMessageReader`, which decodes a big document's
 * text from the message's bytes while they arrive, without first making the whole message a string; other
 * transports (IPC, sockets) are left to the library. AGENT_TRACES_LIBRARY_DECODER=1 leaves stdio's reading to the
 * library too, so that a benchmark can compare the two in one run.
 */
export function createServerConnection(): Connection {
  if (!process.argv.includes('--stdio')) return createConnection(ProposedFeatures.all);
  let reader: MessageReader;
  let input: NodeJS.ReadableStream;
  if (process.env.AGENT_TRACES_LIBRARY_DECODER) {
    input = process.stdin;
    reader = new StreamMessageReader(input);
  } else {
    const ours = new StdioMessageReader(incoming);
    input = readInto(ours);
    reader = ours;
  }
  const connection = createConnection(ProposedFeatures.all, reader, new StreamMessageWriter(process.stdout));
  // What the library does for a stdio connection it makes itself: stdout carries only messages, so console output
  // goes to the client's log; and the end of stdin, the client gone, ends the server.
  let shutDown = false;
  connection.onShutdown(() => {
    shutDown = true;
  });
  const exit = (): never => process.exit(shutDown ? 0 : 1);
  input.on('end', exit);
  input.on('close', exit);
  console.log = console.info = (...args: unknown[]) => connection.console.log(format(...args));
  console.warn = (...args: unknown[]) => connection.console.warn(format(...args));
  console.error = (...args: unknown[]) => connection.console.error(format(...args));
  return connection;
}

/**
 * Stdin, read into the buffers the reader hands out: a pipe (as an editor starts the server) is read straight into
 * them; anything else Node reads as a stream (a file, a terminal), whose chunks the reader copies.
 */
function readInto(reader: StdioMessageReader): NodeJS.ReadableStream {
  // Node reads a socket into a buffer of its caller's with `onread` (documented for sockets it connects, and taken
  // by the constructor alike), asking for the next one after each read.
  const onread: OnReadOpts = {
    buffer: () => reader.nextReadBuffer(),
    callback: (count, buffer) => {
      reader.readInto(count, buffer as Buffer);
      return true;
    },
  };
  let input: Socket;
  try {
    input = new Socket({ fd: 0, readable: true, writable: false, onread } as SocketConstructorOpts);
  } catch {
    process.stdin.on('data', (chunk: Buffer) => reader.read(chunk));
    process.stdin.on('error', (error) => reader.inputError(error));
    return process.stdin;
  }
  input.on('error', (error) => reader.inputError(error));
  return input;
}

/**
 * Bytes read from stdin against the messages decoded from them, to tell when a big message is part way in (a
 * message's header is counted as decoded with its body, within a few bytes).
 */
export class IncomingBytes {
  private undecoded = 0;

  read(bytes: number): void {
    this.undecoded += bytes;
  }

  decoded(bodyBytes: number): void {
    this.undecoded = Math.max(0, this.undecoded - bodyBytes - IncomingBytes.headerBytes);
  }

  /** More than one pipe read's worth (64 KB) undecoded: a big message, most likely a document's text. */
  arriving(): boolean {
    return this.undecoded > 64 * 1024;
  }

  /** A message's header at most: `Content-Length: <digits>` and the blank line, a `Content-Type` line rarely. */
  static readonly headerBytes = 96;
}

const incoming = new IncomingBytes();

/**
 * Whether a big message is on its way in over stdio: part of it read, not yet complete. Work that can wait (the
 * warm-up at start) gives way to it, since the open it most likely carries is what the user is waiting for.
 */
export function messageArriving(): boolean {
  return incoming.arriving();
}

/** Decodes a message as stdio's reader would, for the server's warm-up at start (lsp/warmUp.ts). */
export function warmUpDecoder(message: string): void {
  decodeMessageBody(Buffer.from(message), 0);
}
