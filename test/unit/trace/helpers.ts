import { LineIndex } from '../../../server/src/common/lineIndex';
import { defaultSettings, type ServiceContext, type Settings } from '../../../server/src/common/languageService';
import type { Span } from '../../../server/src/common/types';
import { parseTrace, type TraceModel } from '../../../server/src/trace/model';
import { validate as validateTrace } from '../../../server/src/trace/validate';

export function context(overrides: Partial<Settings> = {}): ServiceContext {
  return { settings: { ...defaultSettings, ...overrides } };
}

export function model(text: string): TraceModel {
  return parseTrace(text);
}

/** `line:character-line:character`, zero-based, for readable span assertions. */
export function where(text: string, span: Span): string {
  const index = new LineIndex(text);
  const a = index.positionAt(span.start);
  const b = index.positionAt(span.end);
  return `${a.line}:${a.character}-${b.line}:${b.character}`;
}

/** The offset of the n-th occurrence of `needle` plus `delta`. */
export function offsetOf(text: string, needle: string, delta = 0, occurrence = 1): number {
  let at = -1;
  for (let i = 0; i < occurrence; i++) {
    at = text.indexOf(needle, at + 1);
    if (at === -1) throw new Error(`"${needle}" not found ${occurrence} times`);
  }
  return at + delta;
}

/** Problems as `severity code where "covered text": message` lines. */
export function problems(text: string, settings: Partial<Settings> = {}): string[] {
  return validateTrace(parseTrace(text), context(settings)).map(
    (p) => `${p.severity} ${p.code} ${where(text, p.span)} ${JSON.stringify(text.slice(p.span.start, p.span.end))}: ${p.message}`,
  );
}

/** Problems without hints and informations, to focus a test on errors. */
export function errors(text: string): string[] {
  return problems(text).filter((p) => p.startsWith('error') || p.startsWith('warning'));
}

export const lines = (...parts: string[]) => parts.join('\n');
