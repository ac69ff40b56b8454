/**
 * A reader of zip archives held in memory: the central directory's entries, then an entry's bytes on demand, read-only.
 * It knows the zip layout only; inflation and checksums come from a `ZipCodec` the host passes in (Node's zlib on the
 * command line and in the server, the browser's DecompressionStream there), so that nothing here needs Node.
 *
 * Everything is bounded before it is trusted: the number of entries, each entry's size as the directory declares it
 * (checked before inflating) and as inflation produces it (the codec stops past the limit), the total read; a
 * mismatched size or checksum is an error, never a half-read entry. ZIP64 sizes and offsets are read; archives split
 * over several disks and encrypted entries are refused with a reason.
 */

export interface ZipCodec {
  /**
   * The raw DEFLATE data inflated, or a thrown `ZipLimitError` as soon as the output would pass `maxBytes`
   * (checked while inflating, not after: a zip bomb's expansion is never held).
   */
  inflateRaw(data: Uint8Array, maxBytes: number): Uint8Array | Promise<Uint8Array>;
  crc32(data: Uint8Array): number;
}

export interface ZipLimits {
  /** Entries the central directory may list. */
  readonly maxEntries: number;
  /** Bytes one entry may hold once inflated. */
  readonly maxEntryBytes: number;
}

export interface ZipEntry {
  readonly name: string;
  /** 0 stored, 8 deflated (the only methods read). */
  readonly method: number;
  readonly compressedSize: number;
  readonly size: number;
  readonly crc32: number;
  readonly localHeaderOffset: number;
  readonly encrypted: boolean;
}

/** Thrown by a codec when inflation passes its limit. */
export class ZipLimitError extends Error {}

export type ZipDirectory = { ok: true; entries: ZipEntry[] } | { ok: false; reason: string };

const endOfDirectorySignature = 0x06054b50;
const zip64LocatorSignature = 0x07064b50;
const zip64EndSignature = 0x06064b50;
const directoryEntrySignature = 0x02014b50;
const localHeaderSignature = 0x04034b50;
const zip64ExtraId = 0x0001;
/** The end record is 22 bytes and may be followed by a comment of up to 65,535. */
const endRecordSearch = 22 + 0xffff;

export function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;
}

export function readZipDirectory(bytes: Uint8Array, limits: ZipLimits): ZipDirectory {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const fail = (reason: string): ZipDirectory => ({ ok: false, reason });
  const end = findEndRecord(view);
  if (end < 0) return fail('not a zip archive (no end of central directory record): the file is cut or not an archive');
  if (view.getUint16(end + 4, true) !== 0 || view.getUint16(end + 6, true) !== 0) return fail('a zip archive split over several disks, which is not read');
  let count = view.getUint16(end + 10, true);
  let directorySize = view.getUint32(end + 12, true);
  let directoryOffset = view.getUint32(end + 16, true);
  if (count === 0xffff || directorySize === 0xffffffff || directoryOffset === 0xffffffff) {
    const locator = end - 20;
    if (locator < 0 || view.getUint32(locator, true) !== zip64LocatorSignature) return fail('a ZIP64 archive without its ZIP64 locator: the file is damaged');
    const zip64End = safeNumber(view.getBigUint64(locator + 8, true));
    if (zip64End === undefined || zip64End + 56 > bytes.length || view.getUint32(zip64End, true) !== zip64EndSignature) return fail('a ZIP64 archive whose ZIP64 end record is missing: the file is damaged');
    const wide = [24, 32, 40, 48].map((at) => safeNumber(view.getBigUint64(zip64End + at, true)));
    if (wide.some((value) => value === undefined)) return fail('a ZIP64 archive with sizes past what can be read');
    [count, directorySize, directoryOffset] = [wide[1]!, wide[2]!, wide[3]!];
  }
  if (count > limits.maxEntries) return fail(`the archive lists ${count} entries, over the limit of ${limits.maxEntries}`);
  if (directoryOffset + directorySize > bytes.length) return fail('the central directory lies past the end of the file: the file is cut');
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const entries: ZipEntry[] = [];
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.length || view.getUint32(at, true) !== directoryEntrySignature) return fail(`central directory entry ${i + 1} of ${count} is damaged`);
    const flags = view.getUint16(at + 8, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    if (at + 46 + nameLength + extraLength > bytes.length) return fail(`central directory entry ${i + 1} of ${count} is cut`);
    let size = view.getUint32(at + 24, true);
    let compressedSize = view.getUint32(at + 20, true);
    let localHeaderOffset = view.getUint32(at + 42, true);
    const wide = readZip64Extra(view, at + 46 + nameLength, extraLength, { size, compressedSize, localHeaderOffset });
    if (!wide) return fail(`central directory entry ${i + 1} of ${count} has a damaged ZIP64 field`);
    ({ size, compressedSize, localHeaderOffset } = wide);
    entries.push({
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
      method: view.getUint16(at + 10, true),
      compressedSize, size, localHeaderOffset,
      crc32: view.getUint32(at + 16, true),
      encrypted: (flags & 1) !== 0,
    });
    at += 46 + nameLength + extraLength + commentLength;
  }
  return { ok: true, entries };
}

/** An entry's bytes: inflated when deflated, its size and checksum checked; a reason when they cannot be read. */
export async function readZipEntry(bytes: Uint8Array, entry: ZipEntry, codec: ZipCodec, limits: ZipLimits): Promise<{ ok: true; data: Uint8Array } | { ok: false; reason: string }> {
  const fail = (reason: string) => ({ ok: false as const, reason: `${entry.name}: ${reason}` });
  if (entry.encrypted) return fail('encrypted, which is not read');
  if (entry.method !== 0 && entry.method !== 8) return fail(`compressed with method ${entry.method}; only stored and deflated entries are read`);
  if (entry.size > limits.maxEntryBytes) return fail(`expands to ${formatSize(entry.size)}, over the ${formatSize(limits.maxEntryBytes)} limit`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const local = entry.localHeaderOffset;
  if (local + 30 > bytes.length || view.getUint32(local, true) !== localHeaderSignature) return fail('its local header is missing: the file is damaged');
  const dataStart = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
  if (dataStart + entry.compressedSize > bytes.length) return fail('its data runs past the end of the file: the file is cut');
  const stored = bytes.subarray(dataStart, dataStart + entry.compressedSize);
  let data: Uint8Array;
  if (entry.method === 0) {
    data = stored;
  } else {
    try {
      // One byte past the declared size is allowed so that an entry lying about its size is caught below, not cut.
      data = await codec.inflateRaw(stored, Math.min(entry.size + 1, limits.maxEntryBytes + 1));
    } catch (error) {
      if (error instanceof ZipLimitError) return fail(`expands past ${entry.size > limits.maxEntryBytes ? 'the limit' : 'the size its directory entry declares'} (${formatSize(entry.size)}): a damaged or hostile archive`);
      return fail(`does not inflate: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  if (data.length !== entry.size) return fail(`holds ${data.length} bytes where its directory entry declares ${entry.size}: the file is damaged`);
  if ((codec.crc32(data) >>> 0) !== entry.crc32) return fail('its checksum (CRC-32) does not match: the file is damaged');
  return { ok: true, data };
}

function findEndRecord(view: DataView): number {
  const lowest = Math.max(0, view.byteLength - endRecordSearch);
  for (let at = view.byteLength - 22; at >= lowest; at--) {
    if (view.getUint32(at, true) === endOfDirectorySignature) return at;
  }
  return -1;
}

/** The ZIP64 extra field's values replace the 32-bit fields that hold 0xffffffff, in this order. */
function readZip64Extra(
  view: DataView, start: number, length: number, narrow: { size: number; compressedSize: number; localHeaderOffset: number },
): { size: number; compressedSize: number; localHeaderOffset: number } | undefined {
  const wanted = (['size', 'compressedSize', 'localHeaderOffset'] as const).filter((key) => narrow[key] === 0xffffffff);
  if (wanted.length === 0) return narrow;
  const result = { ...narrow };
  for (let at = start; at + 4 <= start + length;) {
    const id = view.getUint16(at, true);
    const size = view.getUint16(at + 2, true);
    if (id === zip64ExtraId) {
      if (size < wanted.length * 8 || at + 4 + size > start + length) return undefined;
      for (const [i, key] of wanted.entries()) {
        const value = safeNumber(view.getBigUint64(at + 4 + i * 8, true));
        if (value === undefined) return undefined;
        result[key] = value;
      }
      return result;
    }
    at += 4 + size;
  }
  return undefined;
}

function safeNumber(value: bigint): number | undefined {
  return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : undefined;
}

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${bytes} bytes`;
}
