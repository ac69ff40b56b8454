/**
 * The checks of an Inspect log: syntax; per sample, the links between tool calls and tool messages (shared with
 * every format: a tool message whose call is missing, a call never answered, a repeated id), calls whose arguments
 * the model wrote unreadably (`parse_error`), and tools that failed (`error`, shown on the call and on the error);
 * a log that is not one (no `samples`). Every sample is read for this, one after another, within the budget (a big
 * log in the editor with a pause between samples).
 */
import type { ProblemsSoFar, ServiceContext } from '../common/languageService';
import type { Problem, Severity, Span } from '../common/types';
import { spend } from '../common/budget';
import { runSteps, runStepsInSlices, type Steps } from '../common/steps';
import { capProblems, sortByPosition, tooManyProblemsMessage } from '../common/capProblems';
import { firstLine } from '../common/text';
import { linkProblems } from '../calls/validate';
import { propertyValue, stringValue } from '../json/queries';
import { contentText } from './content';
import { sampleName, traceOf } from './model';
import type { InspectModel, SampleTrace } from './types';

type Add = (span: Span, severity: Severity, name: string, message: string, related?: Problem['related']) => void;

export function validate(model: InspectModel, context: ServiceContext): Problem[] {
  return runSteps(validateSteps(model, context));
}

/**
 * The same checks in slices of about `sliceMs` that each end with `pause()` (which may throw to stop them); `found`
 * hears of the problems found so far after each sample.
 */
export function validateInSlices(
  model: InspectModel, context: ServiceContext, pause: () => Promise<void>, sliceMs: number, found?: (soFar: ProblemsSoFar) => void,
): Promise<Problem[]> {
  return runStepsInSlices(validateSteps(model, context, found), pause, sliceMs);
}

function* validateSteps(model: InspectModel, context: ServiceContext, found?: (soFar: ProblemsSoFar) => void): Steps<Problem[]> {
  const problems: Problem[] = [];
  const add: Add = (span, severity, name, message, related) => {
    const problem: Problem = { span: { start: span.start, end: span.end }, severity, code: name.includes('/') ? name : `inspect/${name}`, message };
    if (related) problem.related = related;
    problems.push(problem);
  };
  for (const error of model.errors) add({ start: error.start, end: Math.max(error.start, error.end) }, 'error', 'json/syntax', error.message);
  const root = model.root;
  if (root?.type === 'object') {
    const samples = propertyValue(root, 'samples');
    if (samples && samples.type !== 'array' && samples.type !== 'null') add(samples, 'error', 'wrong-type', '"samples" is a list of samples');
    const status = propertyValue(root, 'status');
    if (stringValue(status) === 'error') {
      const message = stringValue(propertyValue(propertyValue(root, 'error'), 'message'));
      add(status!, 'warning', 'eval-error', `The evaluation failed${message ? `: ${firstLine(message, 200)}` : ''}`);
    }
  }
  let steps = 0;
  for (const sample of model.samples) {
    steps = spend(context.budget, steps);
    if (sample.node.type !== 'object') {
      add(sample.span, 'error', 'wrong-type', 'A sample is an object (with its id, epoch, input and messages)');
      continue;
    }
    const trace = traceOf(model, sample);
    linkProblems(trace, add);
    checkSample(model, trace, add);
    // Problems past the cap are dropped anyway: stop reading samples for them.
    if (problems.length > context.settings.maxProblems * 2) break;
    found?.({ count: problems.length, list: () => finished([...problems], model, context) });
    yield;
  }
  return finished(problems, model, context);
}

/** The problems sorted by position and capped at the setting, with a notice of those left out. */
function finished(problems: Problem[], model: InspectModel, context: ServiceContext): Problem[] {
  return capProblems(sortByPosition(problems), context.settings.maxProblems, (_omitted, shown, found) => ({
    span: { start: 0, end: Math.min(1, model.text.length) },
    severity: 'warning',
    code: 'inspect/too-many-problems',
    message: tooManyProblemsMessage(shown, found),
  }));
}

function checkSample(model: InspectModel, trace: SampleTrace, add: Add): void {
  const messages = propertyValue(trace.sample.node, 'messages');
  if (messages && messages.type !== 'array') add(messages, 'error', 'wrong-type', '"messages" is a list of messages');
  const error = propertyValue(trace.sample.node, 'error');
  const errorMessage = stringValue(propertyValue(error, 'message'));
  if (error && error.type !== 'null') add(error, 'warning', 'sample-error', `${sampleName(trace.sample)} failed${errorMessage ? `: ${firstLine(errorMessage, 200)}` : ''}`);
  for (const step of trace.steps) {
    if (step.node.type !== 'object') add(step.span, 'error', 'wrong-type', 'A message is an object with a role and content');
    else if (step.role === undefined) add(step.span, 'error', 'missing-role', 'A message needs a "role": system, user, assistant or tool');
  }
  for (const call of trace.calls) {
    if (call.parseError) {
      const said = call.parseError.type === 'string' ? call.parseError.value : '';
      add(call.parseError, 'error', 'parse-error',
        `The model's arguments for "${call.name ?? '?'}" could not be read${said ? `: ${firstLine(said, 200)}` : ''}; the tool got an error instead of running`);
    }
    const args = call.args;
    if (args && args.type !== 'object' && args.type !== 'null') add(args, 'error', 'wrong-type', '"arguments" is an object (Inspect writes the parsed arguments)');
  }
  for (const output of trace.outputs) {
    if (!output.error) continue;
    const kind = output.error.type ?? 'error';
    const said = output.error.message ?? contentText(model.text, output.content, 200, trace.attachments).text;
    const what = `The tool "${output.answers?.name ?? output.tool ?? '?'}" failed (${kind})${said ? `: ${firstLine(said, 160)}` : ''}`;
    const at = propertyValue(output.error.node, 'type') ?? output.error.node;
    add(at, 'warning', 'tool-error', what);
    const call = output.answers;
    if (call) add(call.nameSpan ?? call.idSpan ?? call.span, 'information', 'tool-error', what, [{ span: { start: at.start, end: at.end }, message: 'the error' }]);
  }
}
