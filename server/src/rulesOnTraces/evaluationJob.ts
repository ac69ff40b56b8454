import { buildModel, type RuleModel } from '../guardrail/model';
import { Cancelled } from '../guardrail/evaluate/context';
import { evaluateRulesOnTrace, type RuleFile, type RuleOnTrace } from './evaluateOnTrace';
import { traceReports } from './traceReports';
import { layoutNamed } from '../traceFormats';
import { evaluateCase } from './caseEvaluation';
import { compareOnText } from './compare';
import { explainJob } from './explainOnTrace';
import type { ResumePoint } from './tracesInText';
import { BudgetExceeded } from '../common/budget';
import { WatchBoard, partEveryMs, type Attempt, type RuleSource, type WorkerMessage } from './workerProtocol';
import type { SettledChunk } from './datasetBytes';

/** The worker's side of an evaluation job (see workerProtocol.ts): rule files parsed there, the job run, its parts sent. */

/**
 * UTF-8 bytes as text, as the host would have decoded them: with Node's Buffer where there is one (the command
 * line's workers), else as the browser decodes (invalid bytes become U+FFFD, a byte order mark is kept).
 */
function decodeUtf8(bytes: Uint8Array): string {
  const buffer = (globalThis as { Buffer?: { from(data: ArrayBufferLike, offset: number, length: number): { toString(encoding: 'utf8'): string } } }).Buffer;
  return buffer ? buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8') : new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
}

/** Rule files parsed in the worker, by URI and text: a rule file is evaluated on many traces in a row. */
const models = new Map<string, RuleModel>();
const maxModels = 32;

function ruleFile(source: RuleSource): RuleFile {
  const key = `${source.uri}\u0000${source.text}`;
  let model = models.get(key);
  if (!model) {
    model = buildModel({ uri: source.uri, version: 0, text: source.text });
    if (models.size >= maxModels) models.delete(models.keys().next().value!);
    models.set(key, model);
  }
  return { uri: source.uri, model };
}

/** Reads a streamed dataset's chunk from its bytes for the prefilter (datasetBytes.ts: a Node worker's). */
export type ChunkReader = (bytes: Uint8Array, model: RuleModel, parameters: Record<string, unknown>) => SettledChunk | undefined;

/**
 * Runs one attempt in the worker, sending its parts as they come and then `done` (with the last part), `cancelled`
 * or `failed`. `onRuleStart` is told before each rule runs (the worker's heap gauge measures from there).
 * `readChunk`, where the platform has one, settles a dataset chunk's lines that no rule can hold on before decoding.
 */
export function runAttempt(attempt: Attempt, post: (message: WorkerMessage) => void, onRuleStart: () => void = () => undefined, readChunk?: ChunkReader): void {
  const { id, job } = attempt;
  const board = new WatchBoard(attempt.board);
  board.reset();
  const watch = (unit: RuleOnTrace) => {
    if (unit.rule >= 0) onRuleStart();
    board.enter(unit, attempt.epoch);
  };
  const isCancelled = () => board.isCancelled(id);
  const part = (result: unknown, next: ResumePoint) => post({ id, type: 'part', part: result, next });
  try {
    let last: unknown;
    if (job.kind === 'document') {
      last = evaluateRulesOnTrace(job.rules.map(ruleFile), job.text, layoutNamed(job.layout), {
        path: job.path,
        ...job.options, from: attempt.from, stopped: attempt.stopped, watch, budget: { get isCancellationRequested() { return isCancelled(); } },
        flush: { everyMs: partEveryMs, part },
      });
    } else if (job.kind === 'case') {
      const stopped = attempt.stopped.filter((unit) => unit.trace === 0);
      last = stopped.some((unit) => unit.rule === -1)
        ? { notices: [], errors: [], failure: { message: 'reading this trace took more memory than rules may use', start: 0, end: 0 } }
        : evaluateCase(ruleFile(job.rules[0]).model, job.trace, {
          ...job.options, stopped: new Map(stopped.map((unit) => [unit.rule, unit.reason])),
          watch: (rule) => watch({ trace: 0, ruleFile: 0, rule: rule ?? -1 }), isCancelled,
        });
    } else if (job.kind === 'explain') {
      const stopped = attempt.stopped.find((unit) => unit.trace === 0 && unit.rule === job.ruleIndex);
      if (stopped) {
        last = { problem: stopped.reason === 'memory' ? `rule ${job.ruleIndex + 1} took more memory than rules may use on this trace` : `rule ${job.ruleIndex + 1} ran past its time limit on this trace` };
      } else {
        // The board shows the rule running, so that the host ends this worker if one regular expression holds it.
        watch({ trace: 0, ruleFile: 0, rule: job.ruleIndex });
        last = explainJob(job, ruleFile(job.rules[0]));
        watch({ trace: 0, ruleFile: 0, rule: -1 });
      }
    } else if (job.kind === 'compare') {
      last = compareOnText(ruleFile(job.rules[0]).model, ruleFile(job.rules[1]).model, job.text, layoutNamed(job.layout), {
        ...job.options, from: attempt.from, stopped: attempt.stopped, watch, isCancelled, flush: { everyMs: partEveryMs, part },
      }, job.path);
    } else {
      const rules = ruleFile(job.rules[0]);
      const settled = typeof job.text !== 'string' && job.layout === 'dataset' && job.options.prefilter !== false
        ? readChunk?.(job.text, rules.model, job.options.parameters) : undefined;
      const text = settled?.text ?? (typeof job.text === 'string' ? job.text : decodeUtf8(job.text));
      last = traceReports(rules, text, layoutNamed(job.layout), job.path, {
        ...job.options, from: attempt.from, stopped: attempt.stopped, watch, isCancelled, flush: { everyMs: partEveryMs, part }, clean: settled?.clean,
      });
    }
    board.reset();
    post(isCancelled() ? { id, type: 'cancelled' } : { id, type: 'done', part: last });
  } catch (error) {
    board.reset();
    if (error instanceof BudgetExceeded || error instanceof Cancelled) post({ id, type: 'cancelled' });
    else post({ id, type: 'failed', message: error instanceof Error ? error.stack ?? error.message : String(error) });
  }
}
