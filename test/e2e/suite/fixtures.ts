// Fixtures written with Node (zlib), for the Node host's tests and for the web tier's runner (test/web/run.mjs),
// which writes them into the workspace before the start: a test in the browser cannot write them itself.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inspectArchiveEntries, zipArchive } from '../../unit/inspect/evalArchives';
import { inspectArchivePath } from './fixturePaths';

/** examples/logs/…_refund-agent.json written as Inspect's eval recorder would have written the same run; its path. */
export function writeInspectArchive(workspaceFolder: string): string {
  const json = readFileSync(join(workspaceFolder, 'logs', '2025-07-05T14-00-00_refund-agent.json'), 'utf8');
  const archive = join(workspaceFolder, ...inspectArchivePath);
  writeFileSync(archive, zipArchive(inspectArchiveEntries(json, { compact: true })));
  return archive;
}
