import type { LanguageService } from '../common/service';
import { completion } from './completion';
import { definition } from './definition';
import { folding } from './folding';
import { graph } from './graph';
import { highlights } from './highlights';
import { hover } from './hover';
import { parseLines } from './model';
import type { LinesModel } from './lines';
import { references } from './references';
import { symbols } from './symbols';
import { calledTools } from './tools';
import { validate } from './validate';

export type { LinesModel, Line, LineKind, FileFormat } from './lines';
export { detectJsonLinesFormat } from './detect';

/** JSON Lines trace files: Invariant Explorer datasets (one trace per line) and agentguard tool-call logs. */
export const jsonlService: LanguageService<LinesModel> = {
  parse: parseLines,
  validate,
  hover,
  definition,
  references,
  highlights,
  symbols,
  folding,
  completion,
  graph,
  calledTools,
};
