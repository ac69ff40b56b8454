/**
 * A sample of an Inspect log as Invariant trace events, for guardrail rules. Invariant's gateway has no converter for
 * Inspect logs; Inspect's messages are already in the shape of OpenAI's chat messages, which the analyzer reads as
 * they are, so the mapping keeps them: each message is one event with its `role` and `content`; an assistant
 * message keeps its `tool_calls` as `{id, type: "function", function: {name, arguments}}` (Inspect's `function` is
 * the tool's name, its `arguments` the object); a tool message keeps its `tool_call_id`, and its `error` goes to the event's `metadata` (the analyzer's ToolOutput has
 * no `error`; rules read `out.metadata.error`, null when the tool did not fail). Content
 * parts become the analyzer's chunks (`text` → `{type: "text", text}`, `image` → `{type: "image_url", image_url:
 * {url}}`; reasoning and other media are dropped, as the gateway drops thinking), and a content of one text part is
 * that text. Content Inspect moved into the sample's `attachments` is the attachment's text. Every value keeps the
 * node it came from, so a violation lands on the log's own characters.
 */
import { brokenJson, event, madeArray, madeNull, madeObject, madeString, original, type ConvertedTrace, type Sourced, type SourcedEvent } from '../calls/sourcedEvents';
import type { Span } from '../common/types';
import type { JsonNode } from '../json/nodes';
import { propertyValue, stringValue } from '../json/queries';
import { readSampleTrace } from './sample';
import type { InspectModel, SampleTrace } from './types';
import { spanOf } from '../common/spans';

const attachmentPrefix = 'attachment://';

/** The events of the sample's messages, in order; a message that is not an object with a role is left out. */
export function sampleEvents(text: string, trace: SampleTrace): SourcedEvent[] {
  const events: SourcedEvent[] = [];
  for (const step of trace.steps) {
    const roleNode = propertyValue(step.node, 'role');
    if (step.node.type !== 'object' || roleNode?.type !== 'string') continue;
    const at = spanOf(step.node);
    const fields: [string, Sourced][] = [['role', original(text, roleNode)], ['content', contentOf(text, trace, step.content, at)]];
    if (step.role === 'assistant' && step.calls.length > 0) {
      fields.push(['tool_calls', madeArray(at, step.calls.map((call) => {
        const callAt = spanOf(call.node);
        const id = propertyValue(call.node, 'id');
        const name = propertyValue(call.node, 'function');
        return madeObject(callAt, [
          ['id', id ? original(text, id) : madeNull(callAt)],
          ['type', madeString('function', callAt)],
          ['function', madeObject(callAt, [
            ['name', name ? original(text, name) : madeString('', callAt)],
            ['arguments', call.args && call.args.type !== 'null' ? original(text, call.args) : madeObject(callAt, [])],
          ])],
        ]);
      }))]);
    } else if (step.role === 'tool') {
      const id = propertyValue(step.node, 'tool_call_id');
      if (id && id.type !== 'null') fields.push(['tool_call_id', original(text, id)]);
      const error = propertyValue(step.node, 'error');
      // The analyzer's ToolOutput has no `error`; it keeps an event's `metadata`, where a rule reads it. Every tool
      // output has it (null when the tool did not fail), so that `out.metadata.error` is never a missing key.
      fields.push(['metadata', error && error.type !== 'null'
        ? madeObject(spanOf(error), [['error', original(text, error)]])
        : madeObject(at, [['error', madeNull(at)]])]);
    }
    events.push(event(at, fields));
  }
  return events;
}

function contentOf(text: string, trace: SampleTrace, content: JsonNode | undefined, at: Span): Sourced {
  if (!content || content.type === 'null') return madeNull(at);
  if (content.type === 'string') return resolved(text, trace, content);
  if (content.type !== 'array') return original(text, content);
  const chunks: Sourced[] = [];
  const texts: Sourced[] = [];
  for (const part of content.items) {
    const type = stringValue(propertyValue(part, 'type'));
    const partAt = spanOf(part);
    if (type === 'text') {
      const value = propertyValue(part, 'text');
      if (value?.type !== 'string') continue;
      const said = resolved(text, trace, value);
      texts.push(said);
      chunks.push(madeObject(partAt, [['type', madeString('text', partAt)], ['text', said]]));
    } else if (type === 'image') {
      const image = propertyValue(part, 'image');
      if (image?.type !== 'string') continue;
      chunks.push(madeObject(partAt, [['type', madeString('image_url', partAt)], ['image_url', madeObject(spanOf(image), [['url', resolved(text, trace, image)]])]]));
    }
  }
  if (chunks.length === 1 && texts.length === 1) return texts[0];
  return madeArray(spanOf(content), chunks);
}

/** A string of the log, or the attachment it names (`attachment://<hash>`), with the node it is read from. */
function resolved(text: string, trace: SampleTrace, node: JsonNode & { type: 'string' }): Sourced {
  if (node.end - node.start < 200 && node.value.startsWith(attachmentPrefix)) {
    const held = propertyValue(trace.attachments, node.value.slice(attachmentPrefix.length));
    if (held?.type === 'string') return original(text, held);
  }
  return original(text, node);
}

/**
 * Every sample of a log as one trace (the sample's characters), converted when the caller reaches it, so that only
 * one sample's events (and the images inline in them) are held at a time; a broken log converts to nothing. A
 * sample's trace is read again rather than kept: a caller that goes through all samples would otherwise keep them all.
 */
export function* sampleTraces(model: InspectModel): Generator<ConvertedTrace> {
  const { text } = model;
  if (model.errors.length > 0) {
    yield { start: 0, end: text.length, events: [], skippedLines: [], omittedLines: 0, unreadable: brokenJson(text, model.errors[0]) };
    return;
  }
  for (const sample of model.samples) {
    if (sample.node.type !== 'object') continue;
    const trace = model.traces.get(sample.index) ?? readSampleTrace(text, sample);
    yield { start: sample.span.start, end: sample.span.end, events: sampleEvents(text, trace), skippedLines: [], omittedLines: 0 };
  }
}
