import type { LanguageService } from '../common/languageService';
import { codeLenses } from './codeLenses';
import { completion } from './completion';
import { definition } from './definition';
import { folding } from './folding';
import { highlights } from './highlights';
import { hover } from './hover';
import { buildModel, type RuleModel } from './model';
import { references } from './references';
import { prepareRename, rename } from './rename';
import { codeFixes, parsesWithEdits } from './codeActions';
import { symbols } from './symbols';
import { validate } from './validate';

export type { RuleModel } from './model';

/** Language service for guardrail rule files (`.gr`, the Invariant Guardrails policy language). */
export const guardrailService: LanguageService<RuleModel> = {
  parse: buildModel,
  validate,
  hover,
  definition,
  references,
  highlights,
  symbols,
  folding,
  completion,
  prepareRename,
  rename,
  codeLenses,
  codeFixes,
  parsesWithEdits,
};
