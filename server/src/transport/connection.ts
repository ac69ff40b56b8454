import { format } from 'node:util';
import {
  createConnection, ProposedFeatures, StreamMessageReader, StreamMessageWriter, type Connection, type Message,
} from 'vscode-languageserver/node';
import { decodeMessageBody } from './messageDecoder';

/**
 * The server's connection. Over stdio its messages are decoded by `decodeMessageBody`, which reads a big document's
 * text from the message's bytes without first making the whole message a string; other transports (IPC, sockets)
 * are left to the library. AGENT_TRACES_LIBRARY_DECODER=1 leaves stdio's decoding to the library too, so that a
 * benchmark can compare the two in one run.
 */
export function createServerConnection(): Connection {
  if (!process.argv.includes('--stdio')) return createConnection(ProposedFeatures.all);
  const decoder = process.env.AGENT_TRACES_LIBRARY_DECODER ? undefined : { contentTypeDecoder: jsonDecoder };
  const reader = new StreamMessageReader(process.stdin, decoder);
  if (decoder) process.stdin.on('data', (chunk: Buffer) => incoming.read(chunk.length));
  const connection = createConnection(ProposedFeatures.all, reader, new StreamMessageWriter(process.stdout));
  // What the library does for a stdio connection it makes itself: stdout carries only messages, so console output
  // goes to the client's log; and the end of stdin, the client gone, ends the server.
  let shutDown = false;
  connection.onShutdown(() => {
    shutDown = true;
  });
  const exit = (): never => process.exit(shutDown ? 0 : 1);
  process.stdin.on('end', exit);
  process.stdin.on('close', exit);
  console.log = console.info = (...args: unknown[]) => connection.console.log(format(...args));
  console.warn = (...args: unknown[]) => connection.console.warn(format(...args));
  console.error = (...args: unknown[]) => connection.console.error(format(...args));
  return connection;
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

const jsonDecoder = {
  name: 'application/json',
  async decode(body: Uint8Array, options: { charset: string }): Promise<Message> {
    incoming.decoded(body.length);
    const isUtf8 = /^utf-?8$/i.test(options.charset);
    return (isUtf8 ? decodeMessageBody(body) : JSON.parse(new TextDecoder(options.charset).decode(body))) as Message;
  },
};

/** Decodes a message as stdio's reader would, for the server's warm-up at start (lsp/warmUp.ts). */
export function warmUpDecoder(message: string): void {
  decodeMessageBody(Buffer.from(message), 0);
}
