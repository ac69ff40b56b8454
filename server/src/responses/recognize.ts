/**
 * Whether a JSON document is an OpenAI Responses conversation, from its first characters only (other JSON files
 * cost a bounded scan and stay untouched): a response (`"object": "response"`), a request body (`input` holding
 * Responses items, or a prompt with a `model`), or a bare list of items. A list of `{role, content}` messages with
 * nothing else is an Invariant trace as much as a Responses input, and stays a trace.
 */
import { createScanner } from 'jsonc-parser';
import { Token } from '../json/tokens';
import { itemSchemas, partSchemas } from './items';

export type ResponsesShape = 'response' | 'request' | 'items';

/** Characters read before deciding: the keys that tell are near the start of every real body. */
const scanLimit = 256 * 1024;
/** Items of a bare list looked at. */
const itemsLooked = 64;

/** Item types only Responses writes (a `message` alone could be another format's). */
const responsesOnly = new Set(Object.keys(itemSchemas).filter((type) => type !== 'message'));
/** Content part types only Responses writes (Chat Completions messages, which traces hold, have text, audio and refusal parts too). */
const sharedWithChat = new Set(['text', 'input_audio', 'refusal']);
const responsesParts = new Set(Object.keys(partSchemas).filter((type) => !sharedWithChat.has(type)));

export function detectResponses(text: string): ResponsesShape | undefined {
  const scanner = createScanner(text.length > scanLimit ? text.slice(0, scanLimit) : text, true);
  const containers: number[] = [];
  const keys: (string | undefined)[] = [];
  const indexes: number[] = [];
  let expectKey = false;
  let rootObject = false;
  let hasModel = false;
  let inputIsPrompt = false;
  let roleMessages = false;
  let token = scanner.scan();
  const key = (depth: number) => keys[depth - 1];
  for (let steps = 0; token !== Token.EOF && steps < 200_000; steps++, token = scanner.scan()) {
    const depth = containers.length;
    switch (token) {
      case Token.OpenBrace:
      case Token.OpenBracket:
        if (depth === 0) rootObject = token === Token.OpenBrace;
        if (depth === 1 && !rootObject && indexes[0] >= itemsLooked) return undefined;
        containers.push(token);
        keys.push(undefined);
        indexes.push(0);
        expectKey = token === Token.OpenBrace;
        break;
      case Token.CloseBrace:
      case Token.CloseBracket:
        containers.pop();
        keys.pop();
        indexes.pop();
        if (containers.length === 0) return conclusion();
        expectKey = false;
        break;
      case Token.Comma:
        if (depth > 0) indexes[depth - 1]++;
        expectKey = containers[depth - 1] === Token.OpenBrace;
        break;
      case Token.Colon:
        expectKey = false;
        break;
      case Token.String: {
        const value = scanner.getTokenValue();
        if (expectKey) {
          keys[depth - 1] = value;
          if (depth === 1 && rootObject && value === 'model') hasModel = true;
          if (depth === 2 && !rootObject && value === 'role') roleMessages = true;
          break;
        }
        const found = stringValue(depth, key(depth), value);
        if (found) return found;
        break;
      }
      default:
        break;
    }
  }
  return conclusion();

  function stringValue(depth: number, at: string | undefined, value: string): ResponsesShape | undefined {
    if (rootObject) {
      if (depth === 1 && at === 'object') return value === 'response' ? 'response' : undefined;
      if (depth === 1 && at === 'input') inputIsPrompt = true;
      const inList = key(1) === 'input' ? 'request' : key(1) === 'output' ? 'response' : undefined;
      if (!inList) return undefined;
      if (depth === 3 && at === 'type' && responsesOnly.has(value)) return inList;
      if (depth === 5 && at === 'type' && responsesParts.has(value)) return inList;
      if (depth === 3 && at === 'role') roleMessages = true;
      return undefined;
    }
    if (depth === 2 && at === 'type' && responsesOnly.has(value)) return 'items';
    if (depth === 4 && at === 'type' && key(2) === 'content' && responsesParts.has(value)) return 'items';
    return undefined;
  }

  function conclusion(): ResponsesShape | undefined {
    // A request of plain messages or a prompt is told by its model: an Invariant trace has none at the top.
    return rootObject && hasModel && (inputIsPrompt || roleMessages) ? 'request' : undefined;
  }
}
