import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { AttackedServer, temporaryFolder } from './harness';

const uriOf = (path: string) => pathToFileURL(path).toString();
const trace = '[\n  {"role": "user", "content": "hi"},\n  {"role": "assistant", "content": "hello"}\n]\n';

describe('reading from disk: regular files inside the workspace, under the byte cap', () => {
  const outside = temporaryFolder('outside');
  const workspace = temporaryFolder('workspace');
  let server: AttackedServer;
  const graph = (path: string) => server.request('agentTraces/graph', { uri: uriOf(path) });

  before(async () => {
    const root = workspace.path;
    writeFileSync(join(root, 'ok.trace.json'), trace);
    writeFileSync(join(outside.path, 'secret.json'), '[{"role": "user", "content": "outside the workspace"}]');
    execFileSync('mkfifo', [join(root, 'fifo.trace.jsonl')]);
    execFileSync('mkfifo', [join(root, 'fifo.trace.json')]);
    symlinkSync('/dev/zero', join(root, 'zero.trace.json'));
    symlinkSync('/dev/zero', join(root, 'zero.trace.jsonl'));
    symlinkSync(join(outside.path, 'secret.json'), join(root, 'link-out.trace.json'));
    symlinkSync(join(root, 'ok.trace.json'), join(root, 'link-in.trace.json'));
    symlinkSync(root, join(root, 'loop')); // a folder that contains itself: the index must not follow it
    writeFileSync(join(root, 'binary.trace.json'), Buffer.from([0x5b, 0, 0, 0x5d]));
    mkdirSync(join(root, 'big'));
    // A sparse file: 117 MB on paper, nothing on disk; refused from its size before any byte is read.
    writeFileSync(join(root, 'big', 'huge.trace.json'), '[');
    truncateSync(join(root, 'big', 'huge.trace.json'), 117 * 1024 * 1024);
    server = await AttackedServer.start({ folders: [uriOf(root)] });
    await server.log(/^Tool index: done/);
  });

  after(async () => {
    await server?.stop();
    workspace.remove();
    outside.remove();
  });

  it('previews a regular file in the workspace, also through a symlink that stays inside', async () => {
    for (const name of ['ok.trace.json', 'link-in.trace.json']) {
      const data = await graph(join(workspace.path, name));
      assert.equal(data.error, undefined, name);
      assert.deepEqual(data.nodes.map((n: any) => n.kind), ['user', 'assistant']);
    }
  });

  it('refuses FIFOs and symlinks to devices without blocking later reads', async () => {
    for (const name of ['fifo.trace.jsonl', 'fifo.trace.json']) {
      assert.equal((await graph(join(workspace.path, name))).error, 'Could not read this file: refused: not a regular file', name);
    }
    for (const name of ['zero.trace.json', 'zero.trace.jsonl']) {
      assert.equal((await graph(join(workspace.path, name))).error, 'Could not read this file: refused: the file is outside the workspace folders', name);
    }
    assert.equal((await graph(join(workspace.path, 'ok.trace.json'))).error, undefined, 'a later read is not held up');
    server.assertHealthy();
  });

  it('refuses files outside the workspace, directly or through a symlink', async () => {
    for (const path of [join(outside.path, 'secret.json'), join(workspace.path, 'link-out.trace.json'), '/etc/hostname.json']) {
      const data = await graph(path);
      assert.match(data.error, /^Could not read this file: (refused: the file is outside the workspace folders|cannot read: ENOENT)$/, path);
      assert.deepEqual(data.nodes, []);
    }
    assert.equal((await graph(join(outside.path, 'secret.json'))).error, 'Could not read this file: refused: the file is outside the workspace folders');
  });

  it('refuses a binary file named like a trace', async () => {
    assert.equal((await graph(join(workspace.path, 'binary.trace.json'))).error, 'Could not read this file: refused: a binary file (NUL bytes), not text');
  });

  it('refuses a 117 MB trace over the size cap with a notice, at once', async () => {
    const data = await graph(join(workspace.path, 'big', 'huge.trace.json'));
    assert.equal(data.error, 'Could not read this file: refused: the file is 117 MB, over the 100 MB limit (setting agentTraces.files.maxSizeMB)');
    server.assertHealthy();
  });

  it('the tool index skipped every special file and every symbolic link, and said why', async () => {
    const logged = server.logged().filter((line) => line.startsWith('Tool index: left out'));
    const names = logged.map((line) => line.slice(line.lastIndexOf('/') + 1)).sort();
    const link = 'a symbolic link, not followed (a folder search does not follow links)';
    assert.deepEqual(names, [
      'binary.trace.json: refused: a binary file (NUL bytes), not text',
      'huge.trace.json: refused: the file is 117 MB, over the 10 MB limit (setting agentTraces.workspace.maxFileSizeMB)',
      `link-in.trace.json: ${link}`,
      `link-out.trace.json: ${link}`,
      `loop: ${link}`,
      `zero.trace.json: ${link}`,
      `zero.trace.jsonl: ${link}`,
    ]);
    server.assertHealthy();
  });

  it('a watched-file event for a FIFO or a file outside the workspace reads nothing', async () => {
    await server.server.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [
        { uri: uriOf(join(workspace.path, 'fifo.trace.jsonl')), type: 2 },
        { uri: uriOf(join(workspace.path, 'zero.trace.json')), type: 2 },
        { uri: uriOf(join(outside.path, 'secret.json')), type: 1 },
      ],
    });
    await server.log(/fifo\.trace\.jsonl: refused: not a regular file$/);
    await server.log(/zero\.trace\.json: refused: the file is outside the workspace folders$/);
    await server.log(/secret\.json: refused: the file is outside the workspace folders$/);
    assert.equal((await graph(join(workspace.path, 'ok.trace.json'))).error, undefined);
    server.assertHealthy();
  });
});
