// The ending of a runner that starts code-server and a browser (test/e2e/run.mjs, test/web/run.mjs): cleanups run
// once, newest first, however it ends (done, timed out, interrupted), and the process groups it started are killed
// synchronously on exit as a last resort.
import { killGroup } from './codeServer.mjs';

/**
 * @param {string} tag the runner's log prefix, e.g. 'e2e'
 * @param {(code: number, counts: any) => void} report prints the closing lines before the process exits
 */
export function runnerLifecycle(tag, report) {
  const cleanups = [];
  const pids = [];
  let finished = false;

  process.on('exit', () => {
    for (const pid of pids) {
      killGroup(pid, 'SIGKILL');
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });

  const lifecycle = {
    /** Runs `cleanup` when the runner ends (before the processes are killed). */
    onEnd(cleanup) {
      cleanups.push(cleanup);
    },
    /** Kills the process (and its group, when it leads one) on any exit. */
    track(pid) {
      if (pid) pids.push(pid);
    },
    async finish(code, counts) {
      if (finished) return;
      finished = true;
      for (const cleanup of cleanups.reverse()) {
        try {
          await cleanup();
        } catch (error) {
          console.error(`[${tag}] cleanup failed: ${error.message}`);
        }
      }
      report(code, counts);
      process.exit(code);
    },
  };
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      console.error(`\n[${tag}] ${signal}: stopping code-server and the browser`);
      lifecycle.finish(130, undefined);
    });
  }
  return lifecycle;
}
