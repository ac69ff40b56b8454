/** A worker thread of `check --jobs N`: the first step of a streamed dataset's chunks (datasetChunks.ts). */
import { parentPort } from 'node:worker_threads';
import { errorCode } from '../disk/files';
import { readChunk } from './datasetChunks';
import type { ChunkReply, ChunkRequest } from './chunkReaders';

const port = parentPort!;
port.on('message', (request: ChunkRequest) => {
  const bytes = request.bytes;
  let reply: ChunkReply;
  try {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    reply = { id: request.id, read: readChunk(text, request.firstLine) };
  } catch (error) {
    reply = { id: request.id, failure: errorCode(error) };
  }
  port.postMessage(reply);
});
