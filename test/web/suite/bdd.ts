// The BDD interface the extension-host test files are written against (describe, it, before, after, beforeEach,
// afterEach, this.timeout(), this.skip()), run in order, for the web-worker extension host: mocha's own runner
// reads its files from disk, which that host has none of. Reports each result on the console in the lines the
// Node host's reporter (test/e2e/suite/index.ts) prints, ending with `E2E_RESULT {...}` for the runner.

type Body = (this: TestContext) => unknown;

interface Test {
  title: string;
  body: Body;
  suite: Suite;
}

interface Suite {
  title: string;
  parent?: Suite;
  children: (Suite | Test)[];
  before: Body[];
  after: Body[];
  beforeEach: Body[];
  afterEach: Body[];
}

class Pending extends Error {}

class TestContext {
  constructor(public timeoutMs: number) {}
  timeout(ms?: number): number {
    if (ms !== undefined) this.timeoutMs = ms;
    return this.timeoutMs;
  }
  skip(): never {
    throw new Pending('skipped');
  }
}

const root: Suite = { title: '', children: [], before: [], after: [], beforeEach: [], afterEach: [] };
let current = root;

function fullTitle(suite: Suite | undefined, title = ''): string {
  const parts: string[] = [];
  for (let s = suite; s; s = s.parent) if (s.title) parts.unshift(s.title);
  if (title) parts.push(title);
  return parts.join(' ');
}

export const bdd = {
  describe(title: string, body: () => void): void {
    const suite: Suite = { title, parent: current, children: [], before: [], after: [], beforeEach: [], afterEach: [] };
    current.children.push(suite);
    const outer = current;
    current = suite;
    try {
      body();
    } finally {
      current = outer;
    }
  },
  it(title: string, body: Body): void {
    current.children.push({ title, body, suite: current });
  },
  before(body: Body): void {
    current.before.push(body);
  },
  after(body: Body): void {
    current.after.push(body);
  },
  beforeEach(body: Body): void {
    current.beforeEach.push(body);
  },
  afterEach(body: Body): void {
    current.afterEach.push(body);
  },
};

/** Makes describe, it and the hooks globals, as mocha does, before the test files are evaluated. */
export function installGlobals(): void {
  Object.assign(globalThis, bdd);
}

function runWithTimeout(body: Body, context: TestContext, what: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = () => {
      timer = setTimeout(() => reject(new Error(`timed out after ${context.timeoutMs} ms: ${what}`)), context.timeoutMs);
    };
    try {
      const started = body.call(context);
      arm(); // after the call, so a this.timeout() at the top of the body counts
      Promise.resolve(started).then(
        () => {
          clearTimeout(timer);
          resolve();
        },
        (error) => {
          clearTimeout(timer);
          reject(error);
        },
      );
    } catch (error) {
      clearTimeout(timer);
      reject(error);
    }
  });
}

export interface RunOptions {
  timeoutMs: number;
  /** Runs only the tests whose full title contains this text. */
  grep?: string;
  /** Full titles (or their beginnings) of tests to report as skipped, with the reason printed beside them. */
  skip?: { [titlePrefix: string]: string };
}

export interface RunCounts {
  passed: number;
  failed: number;
  pending: number;
}

/** The whole message (an assertion's expected and actual values), then the first frames of the stack. */
function errorLines(error: unknown): string[] {
  if (!(error instanceof Error)) return String(error).split('\n');
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line)).slice(0, 6);
  return [...`${error.name}: ${error.message}`.split('\n').slice(0, 80), ...frames];
}

/** Runs every registered test in order and prints one line per result; resolves with the counts. */
export async function runRegistered(options: RunOptions): Promise<RunCounts> {
  const counts: RunCounts = { passed: 0, failed: 0, pending: 0 };
  const log = (line: string) => console.log(`[suite] ${line}`);
  const failure = (title: string, error: unknown) => {
    counts.failed++;
    log(`  FAIL ${title}`);
    for (const line of errorLines(error)) log(`       ${line}`);
  };
  const skipReason = (title: string) => Object.entries(options.skip ?? {}).find(([prefix]) => title.startsWith(prefix))?.[1];
  const selected = (test: Test) => !options.grep || fullTitle(test.suite, test.title).includes(options.grep);
  const testsIn = (suite: Suite): Test[] => suite.children.flatMap((child) => ('body' in child ? (selected(child) ? [child] : []) : testsIn(child)));
  const hooksOf = (suite: Suite, kind: 'beforeEach' | 'afterEach'): Body[] => {
    const chain: Suite[] = [];
    for (let s: Suite | undefined = suite; s; s = s.parent) chain.unshift(s);
    const hooks = chain.flatMap((s) => s[kind]);
    return kind === 'afterEach' ? hooks.reverse() : hooks;
  };

  const runTest = async (test: Test) => {
    const title = fullTitle(test.suite, test.title);
    if (!selected(test)) return;
    const reason = skipReason(title);
    if (reason) {
      counts.pending++;
      log(`  skip ${test.title} (${reason})`);
      return;
    }
    const context = new TestContext(options.timeoutMs);
    const started = Date.now();
    try {
      for (const hook of hooksOf(test.suite, 'beforeEach')) await runWithTimeout(hook, new TestContext(options.timeoutMs), `"before each" hook for "${title}"`);
      await runWithTimeout(test.body, context, title);
      for (const hook of hooksOf(test.suite, 'afterEach')) await runWithTimeout(hook, new TestContext(options.timeoutMs), `"after each" hook for "${title}"`);
      counts.passed++;
      log(`  ok   ${test.title} (${Date.now() - started} ms)`);
    } catch (error) {
      if (error instanceof Pending) {
        counts.pending++;
        log(`  skip ${test.title}`);
      } else {
        failure(title, error);
      }
    }
  };

  const runSuite = async (suite: Suite): Promise<void> => {
    const tests = testsIn(suite);
    if (tests.length === 0) return;
    if (suite.title) log(fullTitle(suite));
    const allSkipped = tests.every((test) => skipReason(fullTitle(test.suite, test.title)));
    try {
      if (!allSkipped) for (const hook of suite.before) await runWithTimeout(hook, new TestContext(options.timeoutMs), `"before all" hook of "${fullTitle(suite)}"`);
    } catch (error) {
      // As mocha does: a failing "before all" hook fails once and its suite's tests do not run.
      failure(`${fullTitle(suite)} "before all" hook`, error);
      return;
    }
    for (const child of suite.children) {
      if ('body' in child) await runTest(child);
      else await runSuite(child);
    }
    try {
      if (!allSkipped) for (const hook of suite.after) await runWithTimeout(hook, new TestContext(options.timeoutMs), `"after all" hook of "${fullTitle(suite)}"`);
    } catch (error) {
      failure(`${fullTitle(suite)} "after all" hook`, error);
    }
  };

  await runSuite(root);
  log(`${counts.passed} passing, ${counts.failed} failing, ${counts.pending} pending`);
  console.log(`E2E_RESULT ${JSON.stringify(counts)}`);
  return counts;
}
