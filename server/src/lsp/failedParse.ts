import type { LanguageService } from '../common/languageService';

/** What is kept for a document version whose parse threw: the reason, reported once as a diagnostic. */
export interface FailedParse {
  error: string;
}

/** Answers every request for a document whose parse failed: one diagnostic, nothing else. */
export const failedParseService: LanguageService<FailedParse> = {
  parse: () => ({ error: 'not parsed' }),
  validate: (model) => [{
    span: { start: 0, end: 0 },
    severity: 'error',
    code: 'server/parse-failed',
    message: `This file could not be read by the language server (${model.error}); the language server log has the details.`,
  }],
  hover: () => null,
  definition: () => [],
  references: () => [],
  highlights: () => [],
  symbols: () => [],
  folding: () => [],
  completion: () => [],
};
