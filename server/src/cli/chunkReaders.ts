import { Worker } from 'node:worker_threads';
import { bundleBeside } from '../rulesOnTraces/workerLauncher';
import { errorCode } from '../disk/files';
import { readChunk, type ReadChunk } from './datasetChunks';
import type { LineChunk } from './streamedInputs';

/** A chunk of a streamed dataset handed to a worker, as the bytes read (a copy: this thread keeps its own). */
export interface ChunkRequest {
  id: number;
  bytes: Uint8Array;
  firstLine: number;
}

export type ChunkReply = { id: number } & ({ read: ReadChunk } | { failure: string });

/** What the first step found in a chunk, and the chunk's text (decoded when first asked for). */
export interface ChunkRead {
  read: ReadChunk;
  text: () => string;
}

/**
 * A check worker's heap: old generation, and a small young generation. The worker's garbage is almost all young
 * (each line's parsed value), and with V8's default young generation (tens of MB per thread) the peak memory of
 * `check` moved by tens of MB from run to run and grew with the file.
 */
export const checkWorkerHeap = { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 4 };

interface Pending {
  chunk: LineChunk;
  resolve: (read: ChunkRead) => void;
  reject: (error: Error) => void;
}

/**
 * The first step of checking a dataset's chunks (datasetChunks.ts), on `jobs` worker threads (in this thread for
 * one): each chunk goes to the worker with the fewest in hand. A failure (an exception) rejects the chunk's promise
 * with the message the same failure gives in this thread; a worker that ends with chunks in hand (out of its heap on
 * a huge line, or a crash) leaves them to this thread, read as with `--jobs 1`; so output never depends on --jobs.
 */
export class ChunkReaders {
  private readonly workers: { worker: Worker; pending: Map<number, Pending> }[] = [];
  private nextId = 0;

  constructor(
    private readonly jobs: number,
    private readonly heap = checkWorkerHeap,
    /** Told why a worker ended with chunks in hand (its error's code, as ERR_WORKER_OUT_OF_MEMORY). */
    private readonly ended: (why: string) => void = () => undefined,
  ) {}

  read(chunk: LineChunk): Promise<ChunkRead> {
    if (this.jobs <= 1) return readHere(chunk);
    if (this.workers.length < this.jobs) this.start();
    const least = this.workers.reduce((best, entry) => (entry.pending.size < best.pending.size ? entry : best));
    const id = this.nextId++;
    // Copied, not moved: the chunk stays here, to be decoded when a check needs its text, or read here if the worker ends.
    const request: ChunkRequest = { id, bytes: chunk.bytes, firstLine: chunk.firstLine };
    return new Promise<ChunkRead>((resolve, reject) => {
      least.pending.set(id, { chunk, resolve, reject });
      least.worker.ref();
      least.worker.postMessage(request);
    });
  }

  close(): void {
    for (const { worker, pending } of this.workers) {
      pending.clear();
      void worker.terminate();
    }
    this.workers.length = 0;
  }

  private start(): void {
    const worker = new Worker(bundleBeside('checkWorker.js', 'the check worker'), { stdout: true, stderr: true, resourceLimits: this.heap });
    worker.stdout.resume();
    worker.stderr.resume();
    const entry = { worker, pending: new Map<number, Pending>() };
    // A worker with nothing in hand does not keep the process alive.
    worker.unref();
    worker.on('message', (reply: ChunkReply) => {
      const waiting = entry.pending.get(reply.id);
      entry.pending.delete(reply.id);
      if (entry.pending.size === 0) worker.unref();
      if (!waiting) return;
      if ('read' in reply) waiting.resolve({ read: reply.read, text: () => waiting.chunk.text });
      else waiting.reject(new Error(reply.failure));
    });
    let failure: NodeJS.ErrnoException | undefined;
    worker.on('error', (error) => (failure = error));
    worker.on('exit', () => {
      if (entry.pending.size > 0) this.ended(failure?.code ?? failure?.message ?? 'it exited');
      const index = this.workers.indexOf(entry);
      if (index >= 0) this.workers.splice(index, 1);
      for (const waiting of entry.pending.values()) readHere(waiting.chunk).then(waiting.resolve, waiting.reject);
      entry.pending.clear();
    });
    this.workers.push(entry);
  }
}

function readHere(chunk: LineChunk): Promise<ChunkRead> {
  try {
    return Promise.resolve({ read: readChunk(chunk.text, chunk.firstLine), text: () => chunk.text });
  } catch (error) {
    return Promise.reject(new Error(errorCode(error)));
  }
}
