import { Worker } from 'node:worker_threads';
import { bundleBeside } from '../rulesOnTraces/workerLauncher';
import { errorCode } from '../disk/files';
import { readChunk, type ReadChunk } from './datasetChunks';
import type { LineChunk } from './streamedInputs';

/** A chunk of a streamed dataset handed to a worker, as the bytes read (moved to it, and back with its reply). */
export interface ChunkRequest {
  id: number;
  bytes: Uint8Array;
  firstLine: number;
}

export type ChunkReply = { id: number; bytes: Uint8Array } & ({ read: ReadChunk } | { failure: string });

/** What the first step found in a chunk, and the chunk's text (decoded when first asked for). */
export interface ChunkRead {
  read: ReadChunk;
  text: () => string;
}

/**
 * The first step of checking a dataset's chunks (datasetChunks.ts), on `jobs` worker threads (in this thread for
 * one): each chunk goes to the worker with the fewest in hand. A failure (an exception, a worker that ended) rejects
 * the chunk's promise with the message the same failure gives in this thread, so output never depends on --jobs.
 */
export class ChunkReaders {
  private readonly workers: { worker: Worker; pending: Map<number, { resolve: (read: ChunkRead) => void; reject: (error: Error) => void }> }[] = [];
  private nextId = 0;

  constructor(private readonly jobs: number) {}

  read(chunk: LineChunk): Promise<ChunkRead> {
    if (this.jobs <= 1) {
      try {
        return Promise.resolve({ read: readChunk(chunk.text, chunk.firstLine), text: () => chunk.text });
      } catch (error) {
        return Promise.reject(new Error(errorCode(error)));
      }
    }
    if (this.workers.length < this.jobs) this.start();
    const least = this.workers.reduce((best, entry) => (entry.pending.size < best.pending.size ? entry : best));
    const id = this.nextId++;
    // Moved, not copied: a buffer of its own only (a small one may share the pool of Node's small buffers).
    const own = chunk.bytes.byteOffset === 0 && chunk.bytes.byteLength === chunk.bytes.buffer.byteLength ? chunk.bytes : new Uint8Array(chunk.bytes);
    const request: ChunkRequest = { id, bytes: own, firstLine: chunk.firstLine };
    return new Promise<ChunkRead>((resolve, reject) => {
      least.pending.set(id, { resolve, reject });
      least.worker.ref();
      least.worker.postMessage(request, [own.buffer as ArrayBuffer]);
    });
  }

  close(): void {
    for (const { worker } of this.workers) void worker.terminate();
    this.workers.length = 0;
  }

  private start(): void {
    const worker = new Worker(bundleBeside('checkWorker.js', 'the check worker'), { stdout: true, stderr: true });
    worker.stdout.resume();
    worker.stderr.resume();
    const entry = { worker, pending: new Map<number, { resolve: (read: ChunkRead) => void; reject: (error: Error) => void }>() };
    // A worker with nothing in hand does not keep the process alive.
    worker.unref();
    worker.on('message', (reply: ChunkReply) => {
      const waiting = entry.pending.get(reply.id);
      entry.pending.delete(reply.id);
      if (entry.pending.size === 0) worker.unref();
      if ('read' in reply) waiting?.resolve({ read: reply.read, text: decodedOnce(reply.bytes) });
      else waiting?.reject(new Error(reply.failure));
    });
    let failure: Error | undefined;
    worker.on('error', (error) => (failure = error));
    worker.on('exit', () => {
      const index = this.workers.indexOf(entry);
      if (index >= 0) this.workers.splice(index, 1);
      for (const waiting of entry.pending.values()) waiting.reject(new Error(`the check worker stopped (${failure?.message ?? 'it exited'})`));
      entry.pending.clear();
    });
    this.workers.push(entry);
  }
}

function decodedOnce(bytes: Uint8Array): () => string {
  let text: string | undefined;
  return () => (text ??= Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
}
