/**
 * The preview of a Codex rollout: the session, the prompts, Codex's context messages, the assistant's messages and
 * reasoning, the calls and their outputs (linked by `call_id`), compactions and aborted turns, with each call's
 * time and each model request's tokens. The UI events that repeat the conversation or report its calls are not
 * drawn (the header says how many); a token count is shown on the record it counts.
 */
import type { GraphOptions, ServiceContext } from '../../common/languageService';
import type { Problem } from '../../common/types';
import type { GraphData } from '../../../../shared/protocol';
import { buildGraph } from '../../calls/graph';
import { graphTotals, stepItems, type StepDrawing } from '../../calls/stepGraph';
import { firstLine } from '../../common/text';
import { callDrawing, drawItem, valueText } from '../../responses/itemText';
import type { LinesModel } from '../lines';
import { codexFormat } from './format';
import { rolloutOf } from './rollout';
import { absolute, type RolloutCall, type RolloutModel, type RolloutStep } from './types';

const summaryLength = 120;

export function rolloutGraph(model: LinesModel, options: GraphOptions, context: ServiceContext, problems: Problem[]): GraphData {
  const rollout = rolloutOf(model);
  const hidden = rollout.steps.filter((step) => step.role === 'echo' || step.role === 'call-echo').length;
  const items = stepItems<RolloutStep, RolloutCall>(rollout, {
    step: (step, max) => drawStep(rollout, step, max),
    call: (call, max) => callDrawing(rollout.text, call, codexFormat.stepShort(call.step), max),
  }, context.settings.preview.maxTextLength);
  return buildGraph({
    uri: model.uri,
    version: model.version,
    format: 'codex',
    notice: hidden > 0 ? `${hidden} UI event${hidden === 1 ? '' : 's'} (event_msg) that repeat the conversation or report its calls are not drawn.` : undefined,
    error: rollout.steps.length === 0 ? 'This rollout holds no records.' : undefined,
    totals: graphTotals(rollout),
  }, items, options, context, problems);
}

function drawStep(rollout: RolloutModel, step: RolloutStep, max: number): StepDrawing | undefined {
  const at = codexFormat.stepShort(step);
  const facts = step.facts;
  const selection = absolute(step.line, facts.payloadTypeSpan ?? facts.typeSpan) ?? { start: step.span.start, end: step.span.start };
  const record = (title: string): StepDrawing => {
    const content = valueText(rollout.text, absolute(step.line, facts.payloadSpan), max);
    return { kind: 'metadata', title, summary: firstLine(content.text.slice(0, summaryLength * 4), summaryLength), text: content.text, textLength: content.length, selection };
  };
  switch (step.role) {
    case 'meta': {
      const meta = facts.meta;
      const drawing = record(`${at} session ${meta?.id ?? ''}`.trim());
      return { ...drawing, summary: [meta?.cwd, meta?.cliVersion ? `Codex ${meta.cliVersion}` : undefined].filter(Boolean).join(' · ') };
    }
    case 'prompt': case 'context': case 'message': case 'reasoning': case 'call': case 'output': case 'item': {
      const item = facts.item!;
      return drawItem(rollout.text, { role: step.role, facts: { ...item, contentSpan: absolute(step.line, item.contentSpan), span: absolute(step.line, item.span)! }, span: step.span, calls: step.calls, heldOutputs: step.heldOutputs }, at, selection, max);
    }
    case 'compaction':
      return record(`${at} conversation compacted`);
    case 'marker':
      return facts.payloadType === 'turn_aborted' ? record(`${at} turn aborted${facts.event?.reason ? ` (${facts.event.reason})` : ''}`) : undefined;
    case 'usage':
      // Drawn only when its tokens are counted on itself (no record of the model before it).
      return step.usage ? record(`${at} token count`) : undefined;
    default:
      return undefined;
  }
}
