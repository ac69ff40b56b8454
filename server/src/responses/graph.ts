/**
 * The preview of a Responses document: the instructions, the messages, the reasoning, each call and the outputs
 * that answer it (linked by `call_id`), with the response's tokens in the header.
 */
import type { GraphOptions, ServiceContext } from '../common/languageService';
import type { Problem } from '../common/types';
import type { GraphData } from '../../../shared/protocol';
import { buildGraph } from '../calls/graph';
import { graphTotals, stepItems, type StepDrawing } from '../calls/stepGraph';
import { callDrawing, drawItem } from './itemText';
import type { ItemCall, ItemStep, ResponsesModel } from './model';

export function graph(model: ResponsesModel, options: GraphOptions, context: ServiceContext, problems: Problem[]): GraphData {
  const items = stepItems<ItemStep, ItemCall>(model, {
    step: (step, max) => drawStep(model, step, max),
    call: (call, max) => callDrawing(model.text, call, `#${call.step.index}`, max),
  }, context.settings.preview.maxTextLength);
  return buildGraph({
    uri: model.uri,
    version: model.version,
    format: 'openai-responses',
    error: model.shape ? undefined : 'This document holds no Responses items: a request body with "input", a response with "output", or a list of items.',
    totals: graphTotals(model),
  }, items, options, context, problems);
}

function drawStep(model: ResponsesModel, step: ItemStep, max: number): StepDrawing {
  const at = `#${step.index}`;
  const selection = step.facts.typeSpan ?? step.facts.roleSpan ?? { start: step.span.start, end: step.span.start };
  if (step.role === 'instructions') return { ...drawItem(model.text, { ...step, role: 'message', facts: { ...step.facts, role: 'system' } }, `${at}`, selection, max), title: `${at} instructions`, kind: 'system', role: 'system' };
  return drawItem(model.text, step, at, selection, max);
}
