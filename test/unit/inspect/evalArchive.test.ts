import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { zipCodec } from '../../../server/src/archive/codec';
import { readZipDirectory } from '../../../server/src/archive/zip';
import { defaultSettings } from '../../../server/src/common/languageService';
import { inspectLogOfArchive, type EvalArchiveLimits } from '../../../server/src/inspect/evalArchive';
import { inspectPlaceName, inspectService } from '../../../server/src/inspect';
import { languageForFile } from '../../../server/src/languages';
import { corpus, corpusOrSkip } from '../corpus';
import { inspectArchiveEntries, zipArchive, type ArchiveEntry } from './evalArchives';
import { agentLog, assistant, log, sample, user } from './logs';

const inspectFolder = path.join(corpus, 'formats/inspect');

async function read(archive: Buffer, limits?: EvalArchiveLimits): Promise<string> {
  const result = await inspectLogOfArchive(archive, zipCodec, limits);
  assert.ok(result.ok, result.ok ? '' : result.reason);
  return result.text;
}

async function refusal(archive: Buffer, limits?: EvalArchiveLimits): Promise<string> {
  const result = await inspectLogOfArchive(archive, zipCodec, limits);
  assert.ok(!result.ok, 'the archive should be refused');
  return result.reason;
}

test('an .eval archive of each corpus log reads back as that log (character for character where Inspect wrote it)', async (t) => {
  if (!corpusOrSkip(t)) return;
  for (const name of ['log_formats.json', 'log_read_sample.json', 'log_tool_call_error.json']) {
    const text = readFileSync(path.join(inspectFolder, name), 'utf8');
    // log_tool_call_error.json was written by hand with four-space indents; the others are as Inspect writes them.
    const same = (readBack: string, what: string) => (name === 'log_tool_call_error.json'
      ? assert.deepEqual(JSON.parse(readBack), JSON.parse(text), what)
      : assert.equal(readBack, text.trimEnd(), what));
    // Compact entries as Inspect writes them now (indent=None), indented ones as older versions did, and the ZIP64
    // fields Inspect's streaming sample writes carry.
    for (const [form, entries] of [
      ['compact', inspectArchiveEntries(text, { compact: true })],
      ['indented', inspectArchiveEntries(text)],
      ['zip64', inspectArchiveEntries(text, { compact: true }).map((entry) => ({ ...entry, zip64: true }))],
    ] as const) {
      same(await read(zipArchive([...entries])), `${name} (${form})`);
    }
    same(await read(zipArchive(inspectArchiveEntries(text), { zip64End: true })), `${name} (ZIP64 end record)`);
  }
});

test('samples come in Inspect\'s order (epoch, then id), a sample written twice counts once (its last entry), stored entries read too', async () => {
  // Generated in the shape of the corpus's inspect/log_read_sample.json, with two epochs of three samples.
  const samples = [1, 2].flatMap((epoch) => [2, 10, 'b'].map((id) => sample({ id, epoch, messages: [user(`task ${id}`), assistant(`a_${id}_${epoch}`, `answer ${id}`)] })));
  const text = log(samples);
  const entries: ArchiveEntry[] = inspectArchiveEntries(text, { compact: true }).map((entry, i) => ({ ...entry, stored: i % 2 === 0 }));
  const rewritten = entries.find((entry) => entry.name === 'samples/10_epoch_1.json')!;
  entries.splice(1, 0, { ...rewritten, data: String(rewritten.data).replace('answer 10', 'an earlier answer') });
  const read1 = JSON.parse(await read(zipArchive(entries)));
  assert.deepEqual(read1.samples.map((s: { id: unknown; epoch: number }) => `${s.id}/${s.epoch}`), ['2/1', '10/1', 'b/1', '2/2', '10/2', 'b/2']);
  assert.equal(read1.samples[1].messages[1].content, 'answer 10');
});

test('a log still running (its journal only, no header.json) reads as the log so far', async () => {
  const text = agentLog();
  const readBack = JSON.parse(await read(zipArchive(inspectArchiveEntries(text, { withoutHeader: true }))));
  assert.equal(readBack.eval.task, 'file_agent');
  assert.equal(readBack.samples.length, 2);
  assert.equal(readBack.reductions, undefined);
});

test('the archive\'s text is an Inspect log to every feature: recognised, outlined by sample, its problems placed by sample and path', async () => {
  const text = await read(zipArchive(inspectArchiveEntries(agentLog(), { compact: true })));
  assert.equal(text, agentLog());
  assert.equal(languageForFile('/work/logs/2025-07-05_file-agent.eval', text), 'agent-trace-inspect');
  const model = inspectService.parse({ uri: 'agent-traces-eval:/work/logs/2025-07-05_file-agent.eval', version: 1, text });
  assert.deepEqual(inspectService.symbols!(model).map((item) => item.name), ['Eval: file_agent · openai/gpt-4o', 'Sample 1 (epoch 1): List the files.', 'Sample two (epoch 2): Read the config.']);
  const problems = inspectService.validate(model, { settings: defaultSettings });
  assert.ok(problems.length > 0);
  const orphan = problems.find((p) => p.code === 'inspect/unknown-call-id')!;
  assert.equal(inspectPlaceName(model, orphan.span.start), 'sample two (epoch 2), messages[3].tool_call_id');
});

test('hostile and damaged archives are refused with a reason, before anything past the limits is inflated', async () => {
  const text = agentLog();
  const good = inspectArchiveEntries(text, { compact: true });
  const small: EvalArchiveLimits = { maxEntries: 100, maxBytes: 64 * 1024, setting: 'agentTraces.files.maxSizeMB' };
  // A zip bomb: 20 MB of zeros deflate to 20 KB; its directory declares the truth, so it is refused unread.
  const bomb = { name: 'samples/1_epoch_1.json', data: deflateRawSync(Buffer.alloc(1)) } as ArchiveEntry;
  const zeros = Buffer.alloc(20 * 1024 * 1024);
  assert.match(await refusal(zipArchive([...good.filter((e) => e.name === 'header.json'), { name: 'samples/1_epoch_1.json', data: zeros }]), small),
    /^refused: the log it holds is 20\.0 MB once inflated, over the 0\.1 MB limit \(setting agentTraces\.files\.maxSizeMB\)$/);
  // The same bomb declaring a small size: inflation stops at the declared size.
  assert.match(await refusal(zipArchive([{ ...bomb, data: zeros, declaredSize: 100 }, ...good.filter((e) => e.name === 'header.json')]), small),
    /^not read: samples\/1_epoch_1\.json: expands past the size its directory entry declares \(100 bytes\): a damaged or hostile archive$/);
  assert.match(await refusal(zipArchive(good.map((e) => (e.name === 'header.json' ? { ...e, declaredCrc: 1234 } : e)))),
    /header\.json: its checksum \(CRC-32\) does not match: the file is damaged/);
  const whole = zipArchive(good);
  assert.match(await refusal(whole.subarray(0, whole.length - 30)), /^not read: not a zip archive \(no end of central directory record\)/);
  assert.match(await refusal(zipArchive(good), { maxEntries: 3, maxBytes: 1e6 }), /^not read: the archive lists 6 entries, over the limit of 3$/);
  assert.match(await refusal(Buffer.from(text)), /^not an Inspect \.eval log: an \.eval log is a zip archive, and this file does not start as one$/);
  assert.match(await refusal(zipArchive([{ name: 'notes.txt', data: 'hello' }])), /holds neither header\.json nor _journal\/start\.json/);
  const encrypted = zipArchive(good);
  const directory = readZipDirectory(encrypted, { maxEntries: 100, maxEntryBytes: 1e6 });
  assert.ok(directory.ok);
  // Set the encryption flag on the last entry (header.json) in the central directory.
  encrypted.writeUInt16LE(1, encrypted.lastIndexOf(Buffer.from('PK\u0001\u0002')) + 8);
  assert.match(await refusal(encrypted), /header\.json: encrypted, which is not read/);
});
