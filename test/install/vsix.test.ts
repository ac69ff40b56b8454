import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, it, before } from 'node:test';

const repoRoot = resolve(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));

/** The images a Markdown file shows, as paths from the repository's root (links to other files are not shown). */
function imagesOf(file: string): string[] {
  const text = readFileSync(join(repoRoot, file), 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/!\[[^\]]*\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((target) => !/^[a-z]+:/.test(target));
}

describe('the VSIX, as vsce lists it', () => {
  let files: string[] = [];
  let unavailable: string | undefined;

  before(() => {
    // `vsce ls` lists what `vsce package` would put in the VSIX, by .vscodeignore, without building anything.
    const listed = spawnSync('npx', ['--yes', '@vscode/vsce@3', 'ls', '--no-dependencies'], { cwd: repoRoot, encoding: 'utf8', timeout: 300_000 });
    if (listed.status !== 0) unavailable = `vsce could not be run (npx, the npm registry): ${(listed.stderr || String(listed.error)).trim().split('\n').pop()}`;
    else files = listed.stdout.split('\n').map((line) => line.trim()).filter(Boolean);
  });

  const skipUnlessListed = (t: { skip: (message: string) => void }): boolean => {
    if (!unavailable) return false;
    if (process.env.CI) assert.fail(unavailable);
    t.skip(unavailable);
    return true;
  };

  it('holds the icon, the walkthrough\'s pages and images, and every image the README shows', (t) => {
    if (skipUnlessListed(t)) return;
    assert.ok(manifest.icon && files.includes(manifest.icon), `the icon ${manifest.icon} is in the VSIX`);
    const media = manifest.contributes.walkthroughs.flatMap((w: { steps: { media: Record<string, string> }[] }) =>
      w.steps.map((step) => step.media.image ?? step.media.markdown));
    for (const file of [...media, ...imagesOf('README.md')]) assert.ok(files.includes(file), `${file} is in the VSIX: ${files.join(', ')}`);
  });

  it('holds the examples "Open Examples" copies, and what runs, and none of the sources', (t) => {
    if (skipUnlessListed(t)) return;
    for (const file of ['examples/inbox-assistant.trace.json', 'examples/rules/private-mail.gr', 'examples/broken-fixture.trace.json', 'dist/client.js', 'dist/server.js', 'dist/evaluationWorker.js', 'dist/checkWorker.js', 'dist/ruleAuthoring.js', 'dist/web/client.js', 'dist/web/server.js', 'dist/web/evaluationWorker.js', 'package.json', 'README.md', 'LICENSE']) {
      assert.ok(files.includes(file), `${file} is in the VSIX`);
    }
    const strays = files.filter((file) => /^(server|client|shared|test|bench|node_modules|out)\//.test(file) || /\.(ts|map)$/.test(file));
    assert.deepEqual(strays, [], 'no sources, tests or build leftovers');
  });
});
