// Entry point VS Code loads through `extensionTestsPath` (code-server via run.mjs, desktop via electron.mjs).
// Runs every *.e2e.js beside this file with mocha and prints one line per result to the console, which the
// runners forward; the last line `E2E_RESULT {...}` carries the counts for the runner's closing line.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

const { EVENT_RUN_END, EVENT_TEST_FAIL, EVENT_TEST_PASS, EVENT_TEST_PENDING, EVENT_SUITE_BEGIN } = Mocha.Runner.constants;

class ConsoleReporter extends Mocha.reporters.Base {
  constructor(runner: Mocha.Runner, options?: Mocha.MochaOptions) {
    super(runner, options);
    let passed = 0;
    let failed = 0;
    let pending = 0;
    runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => {
      if (suite.title) console.log(`[suite] ${suite.fullTitle()}`);
    });
    runner.on(EVENT_TEST_PASS, (test: Mocha.Test) => {
      passed++;
      console.log(`[suite]   ok   ${test.title} (${test.duration ?? 0} ms)`);
    });
    runner.on(EVENT_TEST_PENDING, (test: Mocha.Test) => {
      pending++;
      console.log(`[suite]   skip ${test.title}`);
    });
    runner.on(EVENT_TEST_FAIL, (test: Mocha.Test, error: Error) => {
      failed++;
      console.log(`[suite]   FAIL ${test.fullTitle()}`);
      const detail = (error?.stack ?? String(error)).split('\n').slice(0, 12).join('\n');
      for (const line of detail.split('\n')) console.log(`[suite]        ${line}`);
    });
    runner.once(EVENT_RUN_END, () => {
      console.log(`[suite] ${passed} passing, ${failed} failing, ${pending} pending`);
      const result = JSON.stringify({ passed, failed, pending });
      console.log(`E2E_RESULT ${result}`);
      // Desktop runs (electron.mjs) cannot read the console; they name a file instead.
      if (process.env.E2E_RESULT_FILE) fs.writeFileSync(process.env.E2E_RESULT_FILE, result);
    });
  }
}

export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: ConsoleReporter });
  const grep = process.env.E2E_GREP;
  if (grep) mocha.grep(grep);
  // The untrusted files run only in the workbench that keeps Workspace Trust on (run.mjs), and only they run there.
  const untrusted = process.env.E2E_WORKSPACE_TRUST === 'untrusted';
  const files = fs.readdirSync(__dirname).filter((name) => name.endsWith('.e2e.js') && name.endsWith('.untrusted.e2e.js') === untrusted).sort();
  for (const name of files) mocha.addFile(path.join(__dirname, name));
  return new Promise((resolve, reject) => {
    try {
      mocha.run((failures) => {
        if (files.length === 0) reject(new Error(`no *.e2e.js test files in ${__dirname}`));
        else if (failures > 0) reject(new Error(`${failures} end-to-end test(s) failed`));
        else resolve();
      });
    } catch (error) {
      reject(error);
    }
  });
}
