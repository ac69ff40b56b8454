import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import {
  fileKind, isInsideFolders, pathOfUri, readTextFile, useClientFiles, walkFiles, maxListedFiles, type ClientFiles,
} from '../../../server/src/disk/files.browser';
import * as browserPath from '../../../server/src/disk/path.browser';
import { FolderPythonModules } from '../../../server/src/disk/pythonModules.browser';
import { answerFileKind, answerListFiles, answerReadFile, minFoldersRead, walkFolder, type EditorFiles } from '../../../client/src/clientFiles';
import { boardCopies, copyBoard, WatchBoard } from '../../../server/src/rulesOnTraces/workerProtocol';
import { repoRoot } from '../guardrail/helpers';

/*
 * The browser's side of the host interface (ARCHITECTURE.md, "The host: Node and the browser"), in Node: the server's
 * reads through the client, the client's answers over a fake of VS Code's file system, the path operations on URIs,
 * and the watch board a nested web worker reports by messages.
 */

const folder = 'vscode-vfs://github/acme/agents';

/** A client that answers from a map of URIs to texts, and records what it was asked. */
function fakeClient(files: Record<string, string>, asked: string[] = []): ClientFiles {
  return {
    readFile: async (uri, maxBytes) => {
      asked.push(`read ${uri} ${maxBytes}`);
      const text = files[uri];
      if (text === undefined) return { ok: false, reason: 'cannot read: FileNotFound' };
      return text.length > maxBytes ? { ok: false, reason: 'refused: too large', tooLarge: text.length } : { ok: true, text };
    },
    listFiles: async (listed, skipped, maxFiles) => {
      asked.push(`list ${listed} ${skipped.includes('node_modules')} ${maxFiles}`);
      const uris = Object.keys(files).filter((uri) => uri.startsWith(`${listed}/`)).sort();
      return { uris: uris.slice(0, maxFiles), truncated: uris.length > maxFiles };
    },
    fileKind: async (uri) => (files[uri] !== undefined ? 'file' : 'missing'),
  };
}

describe('the server\'s files in the browser (disk/files.browser.ts)', () => {
  it('reads a file inside the workspace through the client, with the caller\'s byte cap', async () => {
    const asked: string[] = [];
    useClientFiles(fakeClient({ [`${folder}/runs/a.trace.json`]: '[]' }, asked));
    assert.deepEqual(await readTextFile(`${folder}/runs/a.trace.json`, { maxBytes: 100, folders: [folder] }), { ok: true, path: `${folder}/runs/a.trace.json`, text: '[]' });
    assert.deepEqual(asked, [`read ${folder}/runs/a.trace.json 100`]);
  });

  it('refuses a file outside the workspace folders without asking the client', async () => {
    const asked: string[] = [];
    useClientFiles(fakeClient({ 'vscode-vfs://github/acme/other/a.gr': 'x' }, asked));
    const read = await readTextFile('vscode-vfs://github/acme/other/a.gr', { maxBytes: 100, folders: [folder] });
    assert.deepEqual(read, { ok: false, reason: 'refused: the file is outside the workspace folders' });
    // A folder whose name starts like the workspace's is not inside it.
    assert.equal(await isInsideFolders(`${folder}-fork/a.gr`, [folder]), false);
    assert.deepEqual(asked, []);
  });

  it('names the size and the setting when a file is over the cap, as a read from disk does', async () => {
    useClientFiles(fakeClient({ [`${folder}/big.trace.json`]: 'x'.repeat(3 * 1024 * 1024) }));
    const read = await readTextFile(`${folder}/big.trace.json`, { maxBytes: 1024 * 1024, folders: [folder], setting: 'agentTraces.files.maxSizeMB' });
    assert.deepEqual(read, { ok: false, reason: 'refused: the file is 3.0 MB, over the 1.0 MB limit (setting agentTraces.files.maxSizeMB)' });
  });

  it('says why it cannot read when no client serves files, and when the client fails', async () => {
    useClientFiles(undefined);
    assert.deepEqual(await readTextFile(`${folder}/a.gr`, { maxBytes: 10 }), { ok: false, reason: 'cannot read: the editor does not serve files to this language server' });
    useClientFiles({ ...fakeClient({}), readFile: () => Promise.reject(new Error('connection closed')) });
    assert.deepEqual(await readTextFile(`${folder}/a.gr`, { maxBytes: 10 }), { ok: false, reason: 'cannot read: connection closed' });
  });

  it('walks a folder as the client lists it, leaving out dependency folders and saying when the listing was cut', async () => {
    const asked: string[] = [];
    useClientFiles(fakeClient({ [`${folder}/b.gr`]: '', [`${folder}/a/x.trace.json`]: '' }, asked));
    const walked = [];
    for await (const item of walkFiles(folder)) walked.push(item);
    assert.deepEqual(walked, [`${folder}/a/x.trace.json`, `${folder}/b.gr`]);
    assert.deepEqual(asked, [`list ${folder} true ${maxListedFiles}`]);

    useClientFiles({ ...fakeClient({}), listFiles: async () => ({ uris: [`${folder}/a.gr`], truncated: true }) });
    const cut = [];
    for await (const item of walkFiles(folder)) cut.push(item);
    assert.deepEqual(cut, [`${folder}/a.gr`, { path: folder, reason: `more than ${maxListedFiles} files (or folders): the first ${maxListedFiles} in name order were read` }]);
  });

  it('tells a file from a missing one, and says nothing about one outside the folders', async () => {
    useClientFiles(fakeClient({ [`${folder}/a.trace.json`]: '[]' }));
    assert.equal(await fileKind(`${folder}/a.trace.json`, [folder]), 'file');
    assert.equal(await fileKind(`${folder}/b.trace.json`, [folder]), 'missing');
    assert.equal(await fileKind('vscode-vfs://github/acme/other/a.trace.json', [folder]), 'outside');
  });

  it('takes a URI with a path as the file\'s path, and none for untitled documents', () => {
    assert.equal(pathOfUri(`${folder}/a.gr`), `${folder}/a.gr`);
    assert.equal(pathOfUri('vscode-remote://127.0.0.1:8080/home/a.gr'), 'vscode-remote://127.0.0.1:8080/home/a.gr');
    assert.equal(pathOfUri('untitled:Untitled-1'), undefined);
    // The extension's storage (the user's copy of the examples) has a URI without an authority.
    assert.equal(pathOfUri('vscode-userdata:/User/globalStorage/x.agent-traces/examples/a.gr'), 'vscode-userdata:/User/globalStorage/x.agent-traces/examples/a.gr');
  });
});

describe('Python modules in the browser (disk/pythonModules.browser.ts)', () => {
  it('reads the modules of a folder inside the workspace ahead, and finds them once they are in', async () => {
    useClientFiles(fakeClient({
      [`${folder}/lib/mymod.py`]: 'def helper(x):\n    return x\n', [`${folder}/lib/pkg/__init__.py`]: 'X = 1\n', [`${folder}/lib/big.py`]: 'x'.repeat(100),
      [`${folder}/lib/notes.txt`]: 'not a module',
    }));
    let loaded!: () => void;
    const whenLoaded = new Promise<void>((resolve) => (loaded = resolve));
    const modules = new FolderPythonModules(['lib'], [folder], 50, () => loaded());
    await whenLoaded;
    assert.equal(modules.unavailable, undefined);
    assert.deepEqual(modules.find('mymod'), { uri: `${folder}/lib/mymod.py`, path: 'lib/mymod.py', size: 28, limit: 50, text: 'def helper(x):\n    return x\n' });
    assert.equal(modules.find('pkg')?.uri, `${folder}/lib/pkg/__init__.py`);
    assert.equal(modules.find('big')?.text, undefined, 'over the size limit: found, not read');
    assert.equal(modules.find('notes'), undefined);
    assert.equal(modules.find('../x'), undefined);
  });

  it('names a folder outside the workspace, which it cannot read', () => {
    useClientFiles(fakeClient({}));
    const modules = new FolderPythonModules(['/home/me/policies'], [folder], 50);
    assert.equal(modules.unavailable, 'VS Code for the Web reads Python modules only from folders inside the workspace (not /home/me/policies)');
  });
});

describe('path operations on URIs (disk/path.browser.ts, node:path in the browser build)', () => {
  it('keeps the scheme and authority as the root', () => {
    assert.equal(browserPath.join(folder, 'rules', '../runs', 'a.trace.json'), `${folder}/runs/a.trace.json`);
    assert.equal(browserPath.dirname(`${folder}/runs/a.trace.json`), `${folder}/runs`);
    assert.equal(browserPath.dirname(`${folder}/a.gr`), folder);
    assert.equal(browserPath.basename(`${folder}/runs/a.trace.json`), 'a.trace.json');
    assert.equal(browserPath.basename(`${folder}/runs/a.trace.json`, '.json'), 'a.trace');
    assert.equal(browserPath.relative(folder, `${folder}/rules/a.gr`), 'rules/a.gr');
    assert.equal(browserPath.relative(`${folder}/rules`, `${folder}/runs/a.gr`), '../runs/a.gr');
    assert.equal(browserPath.resolve(folder, 'rules', 'a.gr'), `${folder}/rules/a.gr`);
    assert.equal(browserPath.isAbsolute(`${folder}/a`), true);
    assert.equal(browserPath.isAbsolute('rules/a.gr'), false);
  });

  it('keeps the scheme as the root of a URI without an authority', () => {
    const storage = 'vscode-userdata:/User/globalStorage/x.agent-traces';
    assert.equal(browserPath.dirname(`${storage}/examples/refunds.tests.json`), `${storage}/examples`);
    assert.equal(browserPath.join(`${storage}/examples`, 'fixtures', '../refunds.gr'), `${storage}/examples/refunds.gr`);
    assert.equal(browserPath.resolve(`${storage}/examples`, 'refunds.gr'), `${storage}/examples/refunds.gr`);
    assert.equal(browserPath.relative(`${storage}/examples`, `${storage}/examples/fixtures/a.trace.json`), 'fixtures/a.trace.json');
    assert.equal(browserPath.relative(`${storage}/examples`, 'file:///home/a.gr'), 'file:///home/a.gr');
    assert.equal(browserPath.isAbsolute(`${storage}/examples`), true);
    assert.equal(browserPath.dirname('vscode-userdata:/a'), 'vscode-userdata:/');
  });

  it('agrees with node:path on plain POSIX paths', async () => {
    const posix = (await import('node:path')).posix;
    for (const [from, to] of [['/a/b', '/a/c/d'], ['/a', '/a'], ['/a/b/c', '/a']]) assert.equal(browserPath.relative(from, to), posix.relative(from, to));
    for (const parts of [['/a', 'b', '..', 'c'], ['a', './b'], ['/a/', '/b/']]) assert.equal(browserPath.join(...parts), posix.join(...parts));
    for (const path of ['/a/b/', '/a', '/', 'a']) assert.equal(browserPath.dirname(path), posix.dirname(path));
  });
});

describe('the client\'s answers to the server\'s file requests (client/src/clientFiles.ts)', () => {
  const files = (entries: Record<string, Uint8Array | 'folder'>, log: string[] = []): EditorFiles => ({
    stat: async (uri) => {
      const entry = entries[uri];
      if (entry === undefined) throw Object.assign(new Error(`${uri} not found`), { code: 'FileNotFound' });
      return entry === 'folder' ? { isFile: false, size: 0 } : { isFile: true, size: entry.length };
    },
    readFile: async (uri) => {
      log.push(`read ${uri}`);
      return entries[uri] as Uint8Array;
    },
    readDirectory: async (folderUri) => {
      log.push(`list ${folderUri}`);
      const names = new Map<string, 'file' | 'folder' | 'link'>();
      for (const [uri, entry] of Object.entries(entries)) {
        if (!uri.startsWith(`${folderUri}/`)) continue;
        const [name, ...below] = uri.slice(folderUri.length + 1).split('/');
        names.set(name, below.length > 0 ? 'folder' : entry === 'folder' ? 'folder' : uri.endsWith('.link') ? 'link' : 'file');
      }
      return [...names].reverse().map(([name, kind]) => ({ uri: `${folderUri}/${name}`, name, kind }));
    },
  });
  const text = (s: string) => new TextEncoder().encode(s);

  it('reads a text file as UTF-8', async () => {
    assert.deepEqual(await answerReadFile(files({ 'f:/a': text('[{"content": "é"}]') }), { uri: 'f:/a', maxBytes: 100 }), { ok: true, text: '[{"content": "é"}]' });
  });

  it('refuses, before reading, a file over the cap, and gives its size', async () => {
    const log: string[] = [];
    assert.deepEqual(await answerReadFile(files({ 'f:/a': text('x'.repeat(50)) }, log), { uri: 'f:/a', maxBytes: 10 }), { ok: false, reason: 'refused: too large', tooLarge: 50 });
    assert.deepEqual(log, []);
  });

  it('refuses folders and binary files, and names the file system\'s error', async () => {
    assert.deepEqual(await answerReadFile(files({ 'f:/d': 'folder' }), { uri: 'f:/d', maxBytes: 10 }), { ok: false, reason: 'refused: not a regular file' });
    assert.deepEqual(await answerReadFile(files({ 'f:/b': new Uint8Array([1, 0, 2]) }), { uri: 'f:/b', maxBytes: 10 }), { ok: false, reason: 'refused: a binary file (NUL bytes), not text' });
    assert.deepEqual(await answerReadFile(files({}), { uri: 'f:/none', maxBytes: 10 }), { ok: false, reason: 'cannot read: FileNotFound' });
  });

  it('lists depth first in name order, leaving out the skipped folders and links, and says when it stopped at the cap', async () => {
    const log: string[] = [];
    const entries = {
      'f:/w/b.gr': text(''), 'f:/w/a/x.trace.json': text(''), 'f:/w/node_modules/m.gr': text(''), 'f:/w/c.link': text(''), 'f:/w/a/y/z.gr': text(''),
    };
    assert.deepEqual(await answerListFiles(files(entries, log), { folder: 'f:/w', skippedFolders: ['node_modules'], maxFiles: 10 }), {
      uris: ['f:/w/a/x.trace.json', 'f:/w/a/y/z.gr', 'f:/w/b.gr'], truncated: false,
    });
    assert.deepEqual(log, ['list f:/w', 'list f:/w/a', 'list f:/w/a/y'], 'node_modules is not read');
    assert.deepEqual(await answerListFiles(files(entries), { folder: 'f:/w', skippedFolders: ['node_modules'], maxFiles: 1 }), {
      uris: ['f:/w/a/x.trace.json'], truncated: true,
    });
  });

  it('reads no more folders than the cap of files, and names a folder it could not read', async () => {
    const deep = { [`f:/w/${'d/'.repeat(minFoldersRead)}e.gr`]: text('') };
    assert.deepEqual(await answerListFiles(files(deep), { folder: 'f:/w', skippedFolders: [], maxFiles: 3 }), { uris: [], truncated: true });
    const failing: EditorFiles = { ...files({}), readDirectory: () => Promise.reject(Object.assign(new Error('gone'), { code: 'FileNotFound' })) };
    assert.deepEqual(await answerListFiles(failing, { folder: 'f:/w', skippedFolders: [], maxFiles: 3 }), { uris: [], truncated: false, problem: 'f:/w: FileNotFound' });
  });

  it('walks for the files of a kind only (the pickers and the Test Explorer where VS Code cannot search), within its caps', async () => {
    const entries = {
      'f:/w/a.tests.json': text(''), 'f:/w/b.gr': text(''), 'f:/w/sub/c.tests.json': text(''), 'f:/w/sub/d.tests.json': text(''), 'f:/w/node_modules/e.tests.json': text(''),
    };
    const accept = (name: string) => name.endsWith('.tests.json');
    assert.deepEqual(await walkFolder(files(entries), 'f:/w', { skippedFolders: ['node_modules'], maxFiles: 10, maxFolders: 10, accept }), {
      uris: ['f:/w/a.tests.json', 'f:/w/sub/c.tests.json', 'f:/w/sub/d.tests.json'], truncated: false,
    });
    // Only the files taken count against the cap; a cap of folders ends the walk too.
    assert.deepEqual(await walkFolder(files(entries), 'f:/w', { skippedFolders: ['node_modules'], maxFiles: 2, maxFolders: 10, accept }), {
      uris: ['f:/w/a.tests.json', 'f:/w/sub/c.tests.json'], truncated: true,
    });
    assert.deepEqual(await walkFolder(files(entries), 'f:/w', { skippedFolders: ['node_modules'], maxFiles: 10, maxFolders: 1, accept }), {
      uris: ['f:/w/a.tests.json'], truncated: true,
    });
  });

  it('tells files, folders and nothing apart', async () => {
    const editor = files({ 'f:/a': text(''), 'f:/d': 'folder' });
    assert.deepEqual([await answerFileKind(editor, 'f:/a'), await answerFileKind(editor, 'f:/d'), await answerFileKind(editor, 'f:/x')], ['file', 'other', 'missing']);
  });
});

describe('the watch board where memory is not shared (a nested web worker)', () => {
  it('reaches the host by copies: the rule running and since when, but not the host\'s cancellation', () => {
    const host = new WatchBoard(new ArrayBuffer(24));
    host.reset();
    host.cancel(7);
    const worker = new WatchBoard(host.buffer.slice(0));
    const sent: Int32Array[] = [];
    boardCopies((slots) => sent.push(slots.slice()));
    try {
      worker.enter({ trace: 2, ruleFile: 0, rule: 3 }, Date.now());
    } finally {
      boardCopies(undefined);
    }
    assert.equal(sent.length, 1);
    assert.deepEqual(host.read().unit, null);
    copyBoard(host.buffer, sent[0]);
    assert.deepEqual(host.read().unit, { trace: 2, ruleFile: 0, rule: 3 });
    assert.equal(host.read().running, true);
    assert.equal(host.isCancelled(7), true, 'the host\'s own slot is kept');
  });

  it('sends nothing for a board in shared memory', () => {
    const sent: unknown[] = [];
    boardCopies((slots) => sent.push(slots));
    try {
      new WatchBoard().enter({ trace: 0, ruleFile: 0, rule: 0 }, Date.now());
    } finally {
      boardCopies(undefined);
    }
    assert.deepEqual(sent, []);
  });
});

describe('the browser bundles', () => {
  it('are built for the browser from the client, the server and the evaluation worker, and named in package.json', () => {
    const build = readFileSync(join(repoRoot(), 'esbuild.mjs'), 'utf8');
    for (const entry of ['client/src/browserExtension.ts', 'server/src/server.ts', 'server/src/rulesOnTraces/evaluationWorker.browser.ts']) {
      assert.match(build, new RegExp(`\\.\\.\\.browserCommon, format: '\\w+', entryPoints: \\['${entry.replace(/[./]/g, '\\$&')}'\\]`), entry);
    }
    assert.equal(JSON.parse(readFileSync(join(repoRoot(), 'package.json'), 'utf8')).browser, './dist/web/client.js');
  });
});
