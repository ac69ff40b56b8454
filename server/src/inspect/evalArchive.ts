/**
 * An Inspect `.eval` log (Inspect's default format: a zip archive) read as the JSON log it holds, the text every
 * feature of the Inspect service reads. Inspect writes the log's header (`header.json`: version, status, eval, plan,
 * results, stats; `_journal/start.json` alone while a run is going or after it crashed), one entry per sample
 * (`samples/<id>_epoch_<n>.json`, a re-logged sample written again under the same name, the last one counting), the
 * scorers' `reductions.json`, and summaries we do not need. The text is the header's properties, then `samples` in
 * Inspect's order (epoch, then id), then `reductions`, laid out as Inspect's JSON logs are: converting or checking the
 * archive gives what the same log saved as `.json` gives, and a line and column name the same place wherever the
 * archive's text is shown (the editor's view of it, the command line's reports).
 */
import { isZip, readZipDirectory, readZipEntry, type ZipCodec, type ZipEntry } from '../archive/zip';
import { reindentJson } from '../json/reindent';

export interface EvalArchiveLimits {
  /** Entries the archive may list. */
  readonly maxEntries: number;
  /** Bytes the log's text may hold once inflated (the header, the samples and the reductions together). */
  readonly maxBytes: number;
  /** The setting that raises `maxBytes`, named when it is hit. */
  readonly setting?: string;
}

export type EvalLogText = { ok: true; text: string; samples: number } | { ok: false; reason: string };

export const defaultEvalArchiveLimits: EvalArchiveLimits = { maxEntries: 100_000, maxBytes: 100 * 1024 * 1024 };

const headerName = 'header.json';
const startName = '_journal/start.json';
const reductionsName = 'reductions.json';
const sampleName = /^samples\/(.+)_epoch_(\d+)\.json$/;

/**
 * The JSON log an `.eval` archive holds. `pause` is awaited between entries, so that a host reading a big archive on
 * its only thread answers other requests meanwhile.
 */
export async function inspectLogOfArchive(bytes: Uint8Array, codec: ZipCodec, limits: EvalArchiveLimits = defaultEvalArchiveLimits, pause?: () => Promise<void>): Promise<EvalLogText> {
  if (!isZip(bytes)) return { ok: false, reason: 'not an Inspect .eval log: an .eval log is a zip archive, and this file does not start as one' };
  const directory = readZipDirectory(bytes, { maxEntries: limits.maxEntries, maxEntryBytes: limits.maxBytes });
  if (!directory.ok) return { ok: false, reason: `not read: ${directory.reason}` };
  const latest = new Map<string, ZipEntry>();
  for (const entry of directory.entries) latest.set(entry.name, entry);
  const header = latest.get(headerName) ?? latest.get(startName);
  if (!header) return { ok: false, reason: `not an Inspect .eval log: the archive holds neither ${headerName} nor ${startName}` };
  const samples = [...latest.values()].filter((entry) => sampleName.test(entry.name)).sort(inspectOrder);
  const reductions = latest.get(reductionsName);
  const parts = [header, ...samples, ...(reductions ? [reductions] : [])];
  const total = parts.reduce((sum, entry) => sum + entry.size, 0);
  if (total > limits.maxBytes) {
    return { ok: false, reason: `refused: the log it holds is ${formatMB(total)} once inflated, over the ${formatMB(limits.maxBytes)} limit${limits.setting ? ` (setting ${limits.setting})` : ''}` };
  }
  const decoder = new TextDecoder('utf-8');
  const entryText = async (entry: ZipEntry): Promise<string | { reason: string }> => {
    await pause?.();
    const read = await readZipEntry(bytes, entry, codec, { maxEntries: limits.maxEntries, maxEntryBytes: limits.maxBytes });
    return read.ok ? decoder.decode(read.data) : { reason: `not read: ${read.reason}` };
  };
  const headerText = await entryText(header);
  if (typeof headerText !== 'string') return { ok: false, ...headerText };
  const headerLaidOut = reindentJson(headerText.trim());
  if (!headerLaidOut.startsWith('{')) return { ok: false, reason: `not an Inspect .eval log: its ${header.name} is not a JSON object` };
  const open = headerLaidOut.endsWith('\n}') ? headerLaidOut.slice(0, -2) : '{';
  const out: string[] = [open];
  let first = open === '{';
  const property = (key: string, value: string) => {
    out.push(`${first ? '\n' : ',\n'}  "${key}": ${value}`);
    first = false;
  };
  if (samples.length > 0) {
    const items: string[] = [];
    for (const sample of samples) {
      const text = await entryText(sample);
      if (typeof text !== 'string') return { ok: false, ...text };
      items.push(`    ${reindentJson(text.trim(), 2)}`);
    }
    property('samples', `[\n${items.join(',\n')}\n  ]`);
  }
  if (reductions) {
    const text = await entryText(reductions);
    if (typeof text !== 'string') return { ok: false, ...text };
    property('reductions', reindentJson(text.trim(), 1));
  }
  out.push('\n}');
  return { ok: true, text: out.join(''), samples: samples.length };
}

/** Inspect's order of samples: by epoch, then by id (numbers in numeric order, before names). */
function inspectOrder(a: ZipEntry, b: ZipEntry): number {
  const [, idA, epochA] = sampleName.exec(a.name)!;
  const [, idB, epochB] = sampleName.exec(b.name)!;
  if (epochA !== epochB) return Number(epochA) - Number(epochB);
  const key = (id: string) => (/^\d+$/.test(id) ? id.padStart(20, '0') : id);
  return key(idA) < key(idB) ? -1 : key(idA) > key(idB) ? 1 : 0;
}

function formatMB(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
