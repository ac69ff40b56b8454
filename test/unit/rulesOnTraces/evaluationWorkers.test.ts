import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EvaluationWorkers } from '../../../server/src/rulesOnTraces/evaluationWorkers';
import { runAttempt } from '../../../server/src/rulesOnTraces/evaluationJob';
import type { RulesOnTraceResult } from '../../../server/src/rulesOnTraces/evaluateOnTrace';
import { addPart } from '../../../server/src/rulesOnTraces/results';
import { WatchBoard, type Attempt, type EvaluationJob, type WorkerMessage } from '../../../server/src/rulesOnTraces/workerProtocol';
import type { EvaluationWorkerPort, WorkerExit, WorkerLauncher } from '../../../server/src/rulesOnTraces/workerLauncher';

/**
 * The host's side of evaluation workers, with workers that run the job in this thread: one that behaves, and ones
 * that get stuck inside a rule (as in one long regular expression) or run out of memory there, as a real worker
 * would be seen from the host: the board says which rule runs, and no message comes.
 */
type Behaviour = 'run' | 'stuck' | 'out-of-memory' | 'slow-start';

/** How long a 'slow-start' worker takes before it reads its first message (as one loading the evaluator under load). */
const slowStartMs = 1000;

function launcher(behaviours: Behaviour[], log: string[]): WorkerLauncher {
  return () => {
    const behaviour = behaviours.shift() ?? 'run';
    let onMessage: (message: WorkerMessage) => void = () => undefined;
    let onExit: (exit: WorkerExit) => void = () => undefined;
    let ended = false;
    // A real worker keeps the process alive while it has work; so does this timer.
    let alive: NodeJS.Timeout | undefined;
    // Messages are read in order, once the worker has started.
    let inbox = new Promise<void>((resolve) => (behaviour === 'slow-start' ? setTimeout(resolve, slowStartMs) : setImmediate(resolve)));
    const port: EvaluationWorkerPort = {
      post(attempt: Attempt) {
        log.push(`attempt ${attempt.id} from ${attempt.from?.offset ?? 0}, stopped ${JSON.stringify(attempt.stopped.map((s) => [s.trace, s.rule, s.reason]))}`);
        inbox = inbox.then(() => new Promise<void>((resolve) => setImmediate(resolve))).then(() => {
          if (ended) return;
          if (behaviour === 'run' || behaviour === 'slow-start') {
            runAttempt(attempt, (message) => !ended && onMessage(structuredClone(message)));
            return;
          }
          // Sits in the second rule of the first trace, as a worker inside a regular expression does.
          new WatchBoard(attempt.board).enter({ trace: 0, ruleFile: 0, rule: 1 }, attempt.epoch);
          if (behaviour === 'out-of-memory') {
            setTimeout(() => {
              clearInterval(alive);
              onExit({ outOfMemory: true, message: 'Worker terminated due to reaching memory limit' });
            }, 50);
          }
        });
      },
      onMessage: (listener) => (onMessage = listener),
      onExit: (listener) => (onExit = listener),
      terminate: () => {
        ended = true;
        clearInterval(alive);
        log.push('terminated');
      },
      keepAlive: (active) => {
        clearInterval(alive);
        alive = active && !ended ? setInterval(() => undefined, 1000) : undefined;
      },
    };
    return port;
  };
}

const rules = 'raise "one" if:\n    (m: Message)\n    "a" in m.content\n\nraise "two" if:\n    (m: Message)\n    "b" in m.content\n';
const job = (timeLimitMs: number): Extract<EvaluationJob, { kind: 'document' }> => ({
  kind: 'document', rules: [{ uri: 'file:///w/r.gr', text: rules }], text: '[{"role": "user", "content": "a b"}]', layout: 'trace', path: 'file:///w/t.trace.json',
  options: { workBudget: 1_000_000, timeLimitMs },
});

async function evaluate(workers: EvaluationWorkers, timeLimitMs: number, isCancelled?: () => boolean) {
  const total: RulesOnTraceResult = { violations: [], notices: [], outcomes: new Map(), traces: 0 };
  const outcome = await workers.run(job(timeLimitMs), (part) => addPart(total, part), isCancelled);
  return { outcome, messages: total.violations.map((v) => v.message), notices: total.notices.map((n) => `${n.kind}: ${n.message}`), total };
}

describe('evaluation workers (the host)', () => {
  it('runs jobs one after another on one worker', async () => {
    const log: string[] = [];
    const workers = new EvaluationWorkers(launcher([], log));
    const [first, second] = await Promise.all([evaluate(workers, 5000), evaluate(workers, 5000)]);
    assert.deepEqual([first.outcome, first.messages, second.messages], ['done', ['one', 'two'], ['one', 'two']]);
    assert.deepEqual(log, ['attempt 1 from 0, stopped []', 'attempt 2 from 0, stopped []']);
  });

  it('ends a worker stuck in a rule past its time limit, and goes on with that rule reported as stopped', async () => {
    const log: string[] = [];
    const logged: string[] = [];
    const workers = new EvaluationWorkers(launcher(['stuck'], log), (message) => logged.push(message));
    const result = await evaluate(workers, 50);
    assert.equal(result.outcome, 'done');
    assert.deepEqual(result.messages, ['one']);
    assert.deepEqual(result.notices, ['timeout: r.gr: Rule 2 stopped after running 50 ms on this trace (the time limit); its violations are not reported (setting agentTraces.guardrails.timeout)']);
    assert.equal(result.total.outcomes.get('file:///w/r.gr')!.get(1)!.timedOut, 1);
    assert.deepEqual(log, ['attempt 1 from 0, stopped []', 'terminated', 'attempt 2 from 0, stopped [[0,1,"timeout"]]']);
    assert.deepEqual(logged.filter((line) => line.includes('time limit')), ['[guardrails] rule 2 of r.gr on the trace at offset 0 ran past its time limit (50 ms): the evaluation worker was ended and replaced']);
  });

  it('replaces a worker that ran out of memory in a rule: the rule file fails on that trace with MemoryError', async () => {
    const log: string[] = [];
    const workers = new EvaluationWorkers(launcher(['out-of-memory'], log));
    const result = await evaluate(workers, 5000);
    assert.deepEqual(result.messages, []);
    assert.deepEqual(result.notices, ['failed: Guardrails from r.gr could not be evaluated: Evaluation failed (rule 2): MemoryError: the rule ran out of the memory allowed for rules (r.gr:5)']);
    assert.deepEqual(log, ['attempt 1 from 0, stopped []', 'attempt 2 from 0, stopped [[0,1,"memory"]]']);
  });

  it('cancels a job a newer one supersedes, ending a worker that does not answer', async () => {
    const log: string[] = [];
    const workers = new EvaluationWorkers(launcher(['stuck'], log));
    let cancelled = false;
    const superseded = evaluate(workers, 60_000, () => cancelled);
    const waiting = evaluate(workers, 60_000, () => cancelled);
    cancelled = true;
    assert.deepEqual([(await superseded).outcome, (await waiting).outcome], ['cancelled', 'cancelled']);
    assert.deepEqual(log, ['attempt 1 from 0, stopped []', 'terminated']);
    assert.deepEqual((await evaluate(workers, 60_000)).messages, ['one', 'two'], 'a new worker takes the next job');
  });

  it('keeps a worker that has not begun a cancelled job (it is still starting): the next job runs on it', async () => {
    const log: string[] = [];
    let launched = 0;
    const slow = launcher(['slow-start'], log);
    const workers = new EvaluationWorkers(() => (launched++, slow()));
    let cancelled = false;
    const superseded = evaluate(workers, 60_000, () => cancelled);
    cancelled = true;
    assert.equal((await superseded).outcome, 'cancelled');
    const next = await evaluate(workers, 60_000);
    assert.deepEqual([next.outcome, next.messages], ['done', ['one', 'two']]);
    assert.equal(launched, 1, 'one worker started');
    assert.deepEqual(log, ['attempt 1 from 0, stopped []', 'attempt 2 from 0, stopped []']);
  });
});
