import assert from 'node:assert/strict';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import {
  createProtocolConnection, PublishDiagnosticsNotification, StreamMessageReader, StreamMessageWriter, type PublishDiagnosticsParams,
} from 'vscode-languageserver/node';

const repoRoot = resolve(__dirname, '..', '..', '..');
const version: string = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')).version;

/** What a clean checkout does not have: build output, installed packages, caches, results. */
const notSources = new Set(['node_modules', '.git', 'dist', 'out', '.cache', 'test-results', '.vscode-test', join('bench', 'results')]);

/** npm as a user runs it: none of the settings `npm test` passes to its children, and a cache of its own. */
function npmEnvironment(cache: string): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));
  return { ...env, npm_config_cache: cache, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

function succeed(result: SpawnSyncReturns<string>, what: string): string {
  assert.equal(result.error, undefined, `${what}: ${result.error}`);
  assert.equal(result.status, 0, `${what} exited ${result.status}\n${result.stdout}\n${result.stderr}`);
  return result.stdout;
}

/** Starts an installed language server, initializes it and opens a broken trace; returns what it answered. */
async function speakLsp(command: string, cwd: string, traceUri: string, traceText: string) {
  const child = spawn(command, ['--stdio'], { cwd, stdio: 'pipe' });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolvePromise) => child.once('exit', (code) => resolvePromise(code)));
  const connection = createProtocolConnection(new StreamMessageReader(child.stdout), new StreamMessageWriter(child.stdin));
  const diagnostics = new Promise<PublishDiagnosticsParams>((resolvePromise, reject) => {
    const timer = setTimeout(() => reject(new Error(`no diagnostics within 20 s; stderr: ${stderr}`)), 20_000);
    connection.onNotification(PublishDiagnosticsNotification.type, (params) => {
      if (params.uri === traceUri) (clearTimeout(timer), resolvePromise(params));
    });
  });
  connection.onRequest('workspace/configuration', (params: { items: unknown[] }) => params.items.map(() => ({})));
  connection.onRequest('client/registerCapability', () => null);
  connection.listen();
  const initialized = await connection.sendRequest<any>('initialize', {
    processId: process.pid, rootUri: null, workspaceFolders: null, capabilities: { workspace: { configuration: true } },
  });
  await connection.sendNotification('initialized', {});
  await connection.sendNotification('textDocument/didOpen', { textDocument: { uri: traceUri, languageId: 'agent-trace', version: 1, text: traceText } });
  const published = await diagnostics;
  await connection.sendRequest('shutdown');
  await connection.sendNotification('exit');
  const code = await exited;
  connection.dispose();
  return { initialized, published, code, stderr };
}

const brokenTrace = '[\n  {"role": "tool", "tool_call_id": "call_9", "content": "done"}\n]\n';

describe('the npm package, installed outside the clone', () => {
  let tmp: string;
  let packed: { filename: string; files: { path: string }[] };
  let globalBin: string;
  let project: string;
  let work: string;
  let env: NodeJS.ProcessEnv;

  before(() => {
    tmp = mkdtempSync(join(tmpdir(), 'agent-traces-install-'));
    env = npmEnvironment(join(tmp, 'npm-cache'));
    // Packed from a copy of the sources, as a fresh clone would be: the build `npm pack` runs never touches this
    // checkout's dist/, which the other tiers use.
    const source = join(tmp, 'source');
    cpSync(repoRoot, source, {
      recursive: true,
      filter: (path) => {
        const inRepo = relative(repoRoot, path);
        return !notSources.has(inRepo) && !/\.(vsix|tgz)$/.test(inRepo);
      },
    });
    symlinkSync(join(repoRoot, 'node_modules'), join(source, 'node_modules'), 'dir');
    const stdout = succeed(spawnSync('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: source, env, encoding: 'utf8' }), 'npm pack');
    // The prepare script's own output comes first; npm's JSON report is the last thing printed.
    [packed] = JSON.parse(stdout.slice(stdout.lastIndexOf('\n[') + 1));
    const tarball = join(tmp, packed.filename);

    // --offline: the package needs nothing from the registry, everything it runs is in its bundles.
    const prefix = join(tmp, 'global');
    succeed(spawnSync('npm', ['install', '--global', '--offline', '--prefix', prefix, tarball], { cwd: tmp, env, encoding: 'utf8' }), 'npm install --global');
    globalBin = join(prefix, 'bin');

    project = join(tmp, 'project');
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'someones-agent', private: true }));
    succeed(spawnSync('npm', ['install', '--offline', '--save-dev', tarball], { cwd: project, env, encoding: 'utf8' }), 'npm install (project)');

    work = join(tmp, 'work');
    mkdirSync(join(work, 'rules'), { recursive: true });
    copyFileSync(join(repoRoot, 'examples', 'inbox-assistant.trace.json'), join(work, 'inbox-assistant.trace.json'));
    copyFileSync(join(repoRoot, 'examples', 'rules', 'private-mail.gr'), join(work, 'rules', 'private-mail.gr'));
  });

  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('holds only what runs: the CLI and server bundles, README, LICENSE and the manifest', () => {
    const files = packed.files.map((f) => f.path).sort();
    for (const required of ['LICENSE', 'README.md', 'dist/cli.js', 'dist/server.js', 'package.json']) assert.ok(files.includes(required), `${required} is missing: ${files}`);
    const strays = files.filter((path) => !['LICENSE', 'README.md', 'package.json'].includes(path) && !(/^dist\/[^/]+\.js$/.test(path) && path !== 'dist/client.js'));
    assert.deepEqual(strays, [], 'only the bundles the commands run belong in the package');
    const manifest = JSON.parse(readFileSync(join(globalBin, '..', 'lib', 'node_modules', 'agent-traces', 'package.json'), 'utf8'));
    assert.equal(manifest.dependencies, undefined, 'the bundles hold their dependencies; nothing is fetched on install');
    // npm pack builds the bundles as the VSIX ships them: minified, without source maps.
    const cli = readFileSync(join(globalBin, '..', 'lib', 'node_modules', 'agent-traces', 'dist', 'cli.js'), 'utf8');
    assert.ok(cli.startsWith('#!/usr/bin/env node\n'), 'the command starts with node');
    assert.ok(!cli.includes('sourceMappingURL'), 'no source map is referenced');
  });

  it('installed globally: agent-traces check and eval run from another folder', () => {
    const cli = join(globalBin, 'agent-traces');
    assert.ok(statSync(cli).mode & 0o111, 'the command is executable');
    assert.equal(succeed(spawnSync(cli, ['--version'], { cwd: work, encoding: 'utf8' }), 'agent-traces --version').trim(), version);

    const checked = spawnSync(cli, ['check', 'inbox-assistant.trace.json', 'rules'], { cwd: work, encoding: 'utf8' });
    assert.equal(checked.status, 0, checked.stdout + checked.stderr);
    assert.equal(checked.stdout, '2 files checked: 0 errors, 0 warnings, 0 infos, 0 hints\n');

    const evaluated = spawnSync(cli, ['eval', join('rules', 'private-mail.gr'), 'inbox-assistant.trace.json'], { cwd: work, encoding: 'utf8' });
    assert.equal(evaluated.status, 1, evaluated.stdout + evaluated.stderr);
    assert.equal(evaluated.stdout.split('\n')[0], 'inbox-assistant.trace.json:54:149 warning guardrails The answer mentions payroll mail, which is private (with 24:3)');
    assert.match(evaluated.stdout, /^1 trace in 1 file evaluated: 1 violation, 0 failed$/m);
  });

  it('installed globally: agent-traces-language-server answers initialize over stdio and checks an opened trace', async () => {
    const uri = pathToFileURL(join(work, 'broken.trace.json')).toString();
    const { initialized, published, code, stderr } = await speakLsp(join(globalBin, 'agent-traces-language-server'), work, uri, brokenTrace);
    assert.deepEqual(initialized.serverInfo, { name: 'agent-traces-language-server', version });
    assert.ok(initialized.capabilities.hoverProvider && initialized.capabilities.definitionProvider, JSON.stringify(initialized.capabilities));
    assert.deepEqual(published.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character]), [['trace/unknown-call-id', 1, 35]]);
    assert.equal(code, 0, stderr);
  });

  it('installed into a project: npx runs the project\'s own commands, without the registry', async () => {
    const evaluated = spawnSync('npx', ['--no', 'agent-traces', 'eval', join(work, 'rules', 'private-mail.gr'), join(work, 'inbox-assistant.trace.json')], { cwd: project, env, encoding: 'utf8' });
    assert.equal(evaluated.status, 1, evaluated.stdout + evaluated.stderr);
    assert.match(evaluated.stdout, /inbox-assistant\.trace\.json:54:149 warning guardrails The answer mentions payroll mail/);

    const server = join(project, 'node_modules', '.bin', `agent-traces-language-server`);
    const uri = pathToFileURL(join(project, 'broken.trace.json')).toString();
    const { published, code } = await speakLsp(server, project, uri, brokenTrace);
    assert.deepEqual(published.diagnostics.map((d) => d.code), ['trace/unknown-call-id']);
    assert.equal(code, 0);
  });
});


