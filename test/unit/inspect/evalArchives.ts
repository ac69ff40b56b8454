/**
 * Inspect `.eval` archives written for the tests, as Inspect's eval recorder lays them out (a header, one entry per
 * sample named `samples/<id>_epoch_<n>.json`, reductions, summaries and a journal), from a JSON log's text: each
 * entry is the log's own characters for that part, so reading the archive back must give the log's text again.
 * A small zip writer of our own, with the knobs a hostile or damaged archive needs.
 */
import { crc32, deflateRawSync } from 'node:zlib';
import { parseTree, type Node } from 'jsonc-parser';

export interface ArchiveEntry {
  name: string;
  data: Buffer | string;
  /** Deflated unless said otherwise (Inspect deflates every entry). */
  stored?: boolean;
  /** Size to declare instead of the real one (a lying archive). */
  declaredSize?: number;
  /** Checksum to declare instead of the real one (a damaged archive). */
  declaredCrc?: number;
  /** Declare sizes and offset in a ZIP64 extra field (as Inspect's streaming writes do). */
  zip64?: boolean;
}

export function zipArchive(entries: ArchiveEntry[], options: { zip64End?: boolean } = {}): Buffer {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const raw = typeof entry.data === 'string' ? Buffer.from(entry.data, 'utf8') : entry.data;
    const data = entry.stored ? raw : deflateRawSync(raw);
    const name = Buffer.from(entry.name, 'utf8');
    const size = entry.declaredSize ?? raw.length;
    const checksum = entry.declaredCrc ?? crc32(raw);
    const extra = entry.zip64 ? Buffer.alloc(28) : Buffer.alloc(0);
    if (entry.zip64) {
      extra.writeUInt16LE(1, 0);
      extra.writeUInt16LE(24, 2);
      extra.writeBigUInt64LE(BigInt(size), 4);
      extra.writeBigUInt64LE(BigInt(data.length), 12);
      extra.writeBigUInt64LE(BigInt(offset), 20);
    }
    const wide = (value: number) => (entry.zip64 ? 0xffffffff : value);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(entry.zip64 ? 45 : 20, 4);
    local.writeUInt16LE(entry.stored ? 0 : 8, 8);
    local.writeUInt32LE(checksum, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const header = Buffer.alloc(46);
    header.writeUInt32LE(0x02014b50, 0);
    header.writeUInt16LE(45, 4);
    header.writeUInt16LE(entry.zip64 ? 45 : 20, 6);
    header.writeUInt16LE(entry.stored ? 0 : 8, 10);
    header.writeUInt32LE(checksum, 16);
    header.writeUInt32LE(wide(data.length), 20);
    header.writeUInt32LE(wide(size), 24);
    header.writeUInt16LE(name.length, 28);
    header.writeUInt16LE(extra.length, 30);
    header.writeUInt32LE(wide(offset), 42);
    locals.push(local, name, data);
    central.push(header, name, extra);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const tail: Buffer[] = [];
  if (options.zip64End) {
    const end64 = Buffer.alloc(56);
    end64.writeUInt32LE(0x06064b50, 0);
    end64.writeBigUInt64LE(44n, 4);
    end64.writeBigUInt64LE(BigInt(entries.length), 24);
    end64.writeBigUInt64LE(BigInt(entries.length), 32);
    end64.writeBigUInt64LE(BigInt(directory.length), 40);
    end64.writeBigUInt64LE(BigInt(offset), 48);
    const locator = Buffer.alloc(20);
    locator.writeUInt32LE(0x07064b50, 0);
    locator.writeBigUInt64LE(BigInt(offset + directory.length), 8);
    locator.writeUInt32LE(1, 16);
    tail.push(end64, locator);
  }
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(options.zip64End ? 0xffff : entries.length, 8);
  end.writeUInt16LE(options.zip64End ? 0xffff : entries.length, 10);
  end.writeUInt32LE(options.zip64End ? 0xffffffff : directory.length, 12);
  end.writeUInt32LE(options.zip64End ? 0xffffffff : offset, 16);
  return Buffer.concat([...locals, directory, ...tail, end]);
}

/**
 * The entries Inspect's eval recorder writes for a JSON log (given as text): `_journal/start.json`, one
 * `samples/<id>_epoch_<n>.json` per sample (in `sampleOrder`, default the log's order reversed, as a run finishes
 * them), the journal's and the final summaries, `reductions.json`, and `header.json` last. Each entry holds the
 * log's own characters for its part, compacted as Inspect writes them when `compact` is set.
 */
export function inspectArchiveEntries(logText: string, options: { compact?: boolean; withoutHeader?: boolean } = {}): ArchiveEntry[] {
  const root = parseTree(logText);
  if (!root || root.type !== 'object') throw new Error('not a JSON log');
  const source = (node: Node) => {
    const text = logText.slice(node.offset, node.offset + node.length);
    return options.compact ? compactJson(text) : text;
  };
  const headerParts: string[] = [];
  let samples: Node[] = [];
  let reductions: Node | undefined;
  for (const property of root.children ?? []) {
    const [key, value] = property.children!;
    if (key.value === 'samples' && value.type === 'array') samples = value.children ?? [];
    else if (key.value === 'reductions') reductions = value;
    else headerParts.push(`${JSON.stringify(key.value)}: ${source(value)}`);
  }
  const header = `{${headerParts.join(', ')}}`;
  const sampleEntries = samples.map((sample) => {
    const id = sample.children?.find((p) => p.children?.[0].value === 'id')?.children?.[1].value;
    const epoch = sample.children?.find((p) => p.children?.[0].value === 'epoch')?.children?.[1].value;
    return { name: `samples/${id}_epoch_${epoch}.json`, data: source(sample) };
  }).reverse();
  const summaries = JSON.stringify(samples.map((_, index) => ({ index })));
  return [
    { name: '_journal/start.json', data: header },
    ...sampleEntries,
    { name: '_journal/summaries/1.json', data: summaries },
    ...(options.withoutHeader ? [] : [
      { name: 'summaries.json', data: summaries },
      ...(reductions ? [{ name: 'reductions.json', data: source(reductions) }] : []),
      { name: 'header.json', data: header },
    ]),
  ];
}

/** JSON without the whitespace between tokens, every token as written (Inspect writes its entries with indent=None). */
export function compactJson(text: string): string {
  let out = '';
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (inString) {
      out += char;
      if (char === '\\') out += text[++i];
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
      out += char;
    } else if (!/\s/.test(char)) {
      out += char;
    }
  }
  return out;
}
