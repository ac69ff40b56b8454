import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { defaultSettings, type ServiceContext } from '../../../server/src/common/languageService';
import type { Problem, Span, ToolUsage } from '../../../server/src/common/types';
import { guardrailService } from '../../../server/src/guardrail';
import type { RuleModel } from '../../../server/src/guardrail/model';

export const context: ServiceContext = { settings: defaultSettings };

export function model(text: string): RuleModel {
  return guardrailService.parse({ uri: 'file:///rules.gr', version: 1, text });
}

export function problems(text: string): Problem[] {
  return guardrailService.validate(model(text), context);
}

/** Problems as `code line:col-line:col message` strings (1-based), easy to compare exactly. */
export function describe(text: string, list: Problem[] = problems(text)): string[] {
  const m = model(text);
  return list.map((p) => {
    const a = m.lines.positionAt(p.span.start);
    const b = m.lines.positionAt(p.span.end);
    return `${p.severity} ${p.code} ${a.line + 1}:${a.character + 1}-${b.line + 1}:${b.character + 1} ${p.message}`;
  });
}

/** Offset of the `n`th occurrence (0-based) of `needle`, plus `delta`. */
export function at(text: string, needle: string, delta = 0, n = 0): number {
  let i = -1;
  for (let k = 0; k <= n; k++) {
    i = text.indexOf(needle, i + 1);
    if (i < 0) throw new Error(`'${needle}' not found`);
  }
  return i + delta;
}

export function spanText(text: string, span: Span): string {
  return text.slice(span.start, span.end);
}

export function toolsContext(tools: ToolUsage[], truncated = false): ServiceContext {
  return { settings: defaultSettings, workspaceTools: { tools: () => tools, truncated } };
}

export function repoRoot(): string {
  let dir = __dirname;
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return dir;
}
