// Bundles the extension (client, server, CLI, webview) into dist/ and the tests and benchmarks into out/.
// Usage: node esbuild.mjs [--production] [--watch] [--no-tests]
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

// `npm pack` and `npm publish` run the prepare script: a package ships minified bundles, as the VSIX does.
const packing = ['pack', 'publish'].includes(process.env.npm_command ?? '');
const production = process.argv.includes('--production') || packing;
const watch = process.argv.includes('--watch');
const withTests = !production && !process.argv.includes('--no-tests');

const common = {
  bundle: true,
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  legalComments: 'none',
};

const nodeCommon = { ...common, platform: 'node', target: 'node20', format: 'cjs', mainFields: ['module', 'main'] };

function findFiles(dir, suffix) {
  let found = [];
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return found;
  }
  for (const name of entries) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) found = found.concat(findFiles(path, suffix));
    else if (name.endsWith(suffix)) found.push(path);
  }
  return found;
}

/**
 * The browser build (VS Code for the Web: the client in the web-worker extension host, the server in a web worker)
 * takes `X.browser.ts` wherever the code imports `X.ts` and a file of that name lies beside it: the browser's side
 * of what needs the disk or the OS (see ARCHITECTURE.md, "The host: Node and the browser"). `node:path` becomes
 * disk/path.browser.ts (string work on URIs); any other Node built-in fails the build, which is the check that the
 * browser bundles hold none.
 */
const browserModules = {
  name: 'browser-modules',
  setup(build) {
    build.onResolve({ filter: /^node:path$/ }, () => ({ path: resolve('server/src/disk/path.browser.ts') }));
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const base = resolve(args.resolveDir, args.path).replace(/\.ts$/, '');
      const twin = `${base}.browser.ts`;
      if (existsSync(twin) && resolve(args.importer) !== twin) return { path: twin };
      return undefined;
    });
  },
};

const browserCommon = { ...common, platform: 'browser', target: 'chrome120', mainFields: ['browser', 'module', 'main'], plugins: [browserModules] };

const builds = [
  { ...nodeCommon, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.js', external: ['vscode'] },
  { ...nodeCommon, entryPoints: ['server/src/server.ts'], outfile: 'dist/server.js', banner: { js: '#!/usr/bin/env node' } },
  { ...nodeCommon, entryPoints: ['server/src/cli.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  // Rules are evaluated on worker threads that the server and the CLI end when a rule runs past its time limit.
  { ...nodeCommon, entryPoints: ['server/src/rulesOnTraces/evaluationWorker.ts'], outfile: 'dist/evaluationWorker.js' },
  // `check --jobs N` reads the chunks of a streamed dataset on worker threads.
  { ...nodeCommon, entryPoints: ['server/src/cli/checkWorker.ts'], outfile: 'dist/checkWorker.js' },
  // "Why not here?" and what a rule change flips, loaded by the server on first use (lsp/ruleAuthoringBundle.ts).
  { ...nodeCommon, entryPoints: ['server/src/rulesOnTraces/ruleAuthoring.ts'], outfile: 'dist/ruleAuthoring.js' },
  // VS Code for the Web: the extension in the web-worker extension host, its language server in a web worker.
  { ...browserCommon, format: 'cjs', entryPoints: ['client/src/browserExtension.ts'], outfile: 'dist/web/client.js', external: ['vscode'] },
  { ...browserCommon, format: 'iife', entryPoints: ['server/src/server.ts'], outfile: 'dist/web/server.js' },
  { ...browserCommon, format: 'iife', entryPoints: ['server/src/rulesOnTraces/evaluationWorker.browser.ts'], outfile: 'dist/web/evaluationWorker.js' },
  {
    ...common,
    platform: 'browser',
    target: 'chrome120',
    format: 'iife',
    entryPoints: ['client/webview/main.ts'],
    outfile: 'dist/media/preview.js',
  },
];

/**
 * V8 keeps a script's source for as long as its code lives, one byte per character when every character fits in
 * Latin-1 and two bytes for all of them otherwise. esbuild writes strings and names in ASCII but keeps comments,
 * regular expression literals and raw template literals as they are, and one dash or arrow in one comment (ours or a
 * package's) made the server's 1.9 MB bundle 3.7 MB of heap. A character beyond Latin-1 left in a bundle is written
 * as its \u escape, which reads the same in a comment and in a regular expression (a raw template literal, whose
 * text is its value, must hold none).
 */
const oneBytePerCharacter = {
  name: 'one-byte-per-character',
  setup(build) {
    const outfile = build.initialOptions.outfile;
    if (!outfile?.endsWith('.js')) return;
    build.onEnd((result) => {
      if (result.errors.length > 0 || !existsSync(outfile)) return;
      const text = readFileSync(outfile, 'utf8');
      const beyondLatin1 = /[^\u0000-\u00ff]/g;
      if (!beyondLatin1.test(text)) return;
      writeFileSync(outfile, text.replace(beyondLatin1, (unit) => `\\u${unit.charCodeAt(0).toString(16).padStart(4, '0')}`));
    });
  },
};
for (const options of builds) options.plugins = [...(options.plugins ?? []), oneBytePerCharacter];

const assertForTheBrowser = {
  name: 'assert-for-the-browser',
  setup(build) {
    const target = join(process.cwd(), 'test', 'web', 'suite', 'assert.ts');
    build.onResolve({ filter: /^(node:)?assert(\/strict)?$/ }, () => ({ path: target }));
  },
};

if (withTests) {
  const testEntries = [
    ...findFiles('test', '.test.ts'),
    ...findFiles('test/e2e/suite', '.ts'),
    ...findFiles('bench', '.ts'),
  ];
  if (testEntries.length > 0) {
    builds.push({
      ...nodeCommon,
      entryPoints: testEntries,
      outdir: 'out',
      outbase: '.',
      external: ['vscode', 'mocha', 'playwright-core'],
    });
  }
  // The web-worker extension host's tests (test/web/run.mjs) and cold-start benchmark (bench/web.bench.mjs): each one
  // CommonJS module inside the extension folder, as VS Code's extensionTestsPath wants, built for the browser so that
  // a test needing Node fails here. The shared extension-host test files import node:assert/strict, which the
  // browser has not: they get our module instead.
  builds.push({
    ...common,
    platform: 'browser',
    target: 'es2022',
    format: 'cjs',
    entryPoints: ['test/web/suite/index.ts', 'test/web/bench/coldOpen.ts'],
    outdir: 'out',
    outbase: '.',
    external: ['vscode'],
    plugins: [assertForTheBrowser],
  });
}

function copyMedia() {
  mkdirSync('dist/media', { recursive: true });
  cpSync('client/webview/preview.css', 'dist/media/preview.css');
}

if (watch) {
  for (const options of builds) {
    const context = await esbuild.context(options);
    await context.watch();
  }
  copyMedia();
  console.log('esbuild: watching for changes');
} else {
  await Promise.all(builds.map((options) => esbuild.build(options)));
  copyMedia();
}
