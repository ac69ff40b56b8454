/**
 * The answer to InspectArchiveTextRequest: the JSON log an Inspect `.eval` archive holds, inflated within the file
 * size limit. The archive is read entry by entry with a pause between entries, so that the server answers other
 * requests while a big archive is read. The codec comes from the caller (archive/codec.ts, or its browser twin).
 */
import type { ZipCodec } from '../archive/zip';
import { nextTurn } from '../common/steps';
import { defaultEvalArchiveLimits, inspectLogOfArchive } from '../inspect/evalArchive';
import type { InspectArchiveText, InspectArchiveTextParams } from '../../../shared/requests';

export async function inspectArchiveText(params: InspectArchiveTextParams, codec: ZipCodec, maxBytes: number): Promise<InspectArchiveText> {
  const log = await inspectLogOfArchive(fromBase64(params.bytes), codec, { maxEntries: defaultEvalArchiveLimits.maxEntries, maxBytes, setting: 'agentTraces.files.maxSizeMB' }, nextTurn);
  return log.ok ? { text: log.text, samples: log.samples } : { reason: log.reason };
}

function fromBase64(text: string): Uint8Array {
  if (typeof Buffer !== 'undefined') return Buffer.from(text, 'base64');
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
