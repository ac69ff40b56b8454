/**
 * A model span's `gen_ai.input.messages` repeats its run's history: the text of span N's input is span N-1's input
 * with the messages since added at its end, byte for byte in the common case. A history whose literal starts with
 * the characters of one read for an earlier span (up to that list's closing bracket, followed by a comma) takes the
 * earlier span's messages, moved to its own characters, and reads only its new tail. Identical characters hold the
 * same JSON, so the messages, their places and the JSON's validity are those of a whole reading. Anything else (a
 * history that differs inside, a list whose items are not one message each) is read whole.
 */
import type { JsonNode, JsonString } from '../json/nodes';
import { property } from '../json/queries';
import { viewOfValid } from '../json/validViews';
import type { Span } from '../common/types';
import { LiteralOffsets, maxEmbeddedDepth } from './embedded';
import { shiftedNode } from './jsonViews';
import { maxMessages, readMessages, type ReadMessage } from './messages';
import { noItems } from './types';

/** A history read whole or in part: its literal, where its list closes (`]`), and its messages (kept nodes). */
interface ReadHistory {
  start: number;
  end: number;
  close: number;
  messages: ReadMessage[];
}

/** Histories remembered at once: runs written interleaved find theirs among the last few. */
const remembered = 4;

export class MessageHistories {
  private readonly recent: ReadHistory[] = [];

  /**
   * The messages of the history in `literal` when it continues one read before (`keep` makes the tail's nodes kept
   * ones, as the whole reading's are); undefined when it must be read whole.
   */
  continued(text: string, literal: JsonString, keep: (messages: ReadMessage[]) => ReadMessage[]): ReadMessage[] | undefined {
    for (let i = this.recent.length - 1; i >= 0; i--) {
      const earlier = this.recent[i];
      const prefixLength = earlier.close - earlier.start;
      if (literal.end - literal.start <= prefixLength || !text.startsWith(text.slice(earlier.start, earlier.close), literal.start)) continue;
      let at = literal.start + prefixLength;
      while (text.charCodeAt(at) === 0x20) at++;
      if (text.charCodeAt(at) !== 0x2c) continue;
      const tail = readTail(text, at, literal.end - 1);
      if (!tail || earlier.messages.length + tail.messages.length > maxMessages) return undefined;
      const delta = literal.start - earlier.start;
      const messages = earlier.messages.map((message) => shiftedMessage(message, delta));
      for (const message of keep(tail.messages)) messages.push(message);
      this.remember({ start: literal.start, end: literal.end, close: tail.close, messages });
      return messages;
    }
    return undefined;
  }

  /** A history read whole (its list `root`, valid), to be continued by a later span's. */
  readWhole(literal: JsonString, root: JsonNode | undefined, messages: ReadMessage[], text: string): void {
    if (root?.type !== 'array' || !oneMessageEach(root.items) || messages.length !== root.items.length) return;
    const close = root.end - 1;
    if (text.charCodeAt(close) !== 0x5d) return;
    this.remember({ start: literal.start, end: literal.end, close, messages });
  }

  private remember(history: ReadHistory): void {
    if (this.recent.length >= remembered) this.recent.shift();
    this.recent.push(history);
  }
}

/**
 * The messages after the comma at `comma`, up to the literal's closing quote at `contentEnd`: read as the list
 * `[` + its characters, each place mapped to the file's. Undefined unless they are one or more messages, one per
 * item, and the list is valid JSON.
 */
function readTail(text: string, comma: number, contentEnd: number): { messages: ReadMessage[]; close: number } | undefined {
  // The characters after a comma outside the JSON's strings begin after an escape: they decode on their own, and
  // V8's JSON parser decodes them fastest.
  const json = `[${JSON.parse(`"${text.slice(comma + 1, contentEnd)}"`) as string}`;
  const inner = new LiteralOffsets(text, comma + 1, contentEnd);
  const offsets = { at: (offset: number) => (offset === 0 ? comma : inner.at(offset - 1)) };
  const root = viewOfValid(json, 0, json.length, { offsets, decoded: true, maxDepth: maxEmbeddedDepth });
  if (root?.type !== 'array' || root.items.length === 0 || !oneMessageEach(root.items)) return undefined;
  const messages = readMessages(root);
  const close = root.end - 1;
  if (messages.length !== root.items.length || text.charCodeAt(close) !== 0x5d) return undefined;
  return { messages, close };
}

/** Items that readMessages reads as one message each (any-agent's calls are joined to the message before them). */
function oneMessageEach(items: JsonNode[]): boolean {
  return items.length < maxMessages && items.every((item) => item.type === 'object' && !property(item, 'tool.name'));
}

const moved = (span: Span, delta: number): Span => ({ start: span.start + delta, end: span.end + delta });

/** A message of an earlier history at the same characters `delta` further on, its own objects and nodes. */
function shiftedMessage(message: ReadMessage, delta: number): ReadMessage {
  const shifted: ReadMessage = {
    span: moved(message.span, delta), role: message.role, texts: message.texts.length === 0 ? noItems : message.texts.map((node) => shiftedNode(node, delta)),
    toolCalls: message.toolCalls.length === 0 ? noItems : message.toolCalls.map((call) => {
      const part = { ...call, span: moved(call.span, delta), args: call.args && shiftedNode(call.args, delta) };
      if (call.idSpan) part.idSpan = moved(call.idSpan, delta);
      if (call.nameSpan) part.nameSpan = moved(call.nameSpan, delta);
      return part;
    }),
    toolResponses: message.toolResponses.length === 0 ? noItems : message.toolResponses.map((response) => {
      const part = { ...response, span: moved(response.span, delta), response: response.response && shiftedNode(response.response, delta) };
      if (response.idSpan) part.idSpan = moved(response.idSpan, delta);
      return part;
    }),
  };
  if (message.roleSpan) shifted.roleSpan = moved(message.roleSpan, delta);
  return shifted;
}
