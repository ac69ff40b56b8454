import * as assert from 'node:assert/strict';
import { defaultSettings, type ServiceContext } from '../../../server/src/common/languageService';
import type { Problem, Span } from '../../../server/src/common/types';
import { jsonlService, type LinesModel } from '../../../server/src/jsonl';

export const context: ServiceContext = { settings: defaultSettings };

export function parse(text: string, uri = 'file:///test.jsonl'): LinesModel {
  return jsonlService.parse({ uri, version: 1, text });
}

export function problemsOf(text: string, settings: Partial<ServiceContext['settings']> = {}): Problem[] {
  return jsonlService.validate(parse(text), { settings: { ...defaultSettings, ...settings } });
}

/** Problems as `code "covered text" message`, easy to compare exactly. */
export function describe(text: string, problems: Problem[]): string[] {
  return problems.map((p) => `${p.code} ${JSON.stringify(text.slice(p.span.start, p.span.end))} ${p.message}`);
}

/** Span of the nth occurrence of needle (optionally a part of it: [from, to) within the needle). */
export function spanOf(text: string, needle: string, nth = 0, part?: [number, number]): Span {
  let at = -1;
  for (let i = 0; i <= nth; i++) {
    at = text.indexOf(needle, at + 1);
    assert.notEqual(at, -1, `'${needle}' occurrence ${nth} not found`);
  }
  return part ? { start: at + part[0], end: at + part[1] } : { start: at, end: at + needle.length };
}

/** Offset just inside the nth occurrence of needle (plus delta). */
export function offsetOf(text: string, needle: string, delta = 1, nth = 0): number {
  return spanOf(text, needle, nth).start + delta;
}

export function codes(problems: Problem[]): string[] {
  return problems.map((p) => p.code);
}

export function cut(text: string, span: Span): string {
  return text.slice(span.start, span.end);
}
