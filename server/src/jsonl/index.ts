import type { LanguageService } from '../common/service';
import { completion } from '../dataset/completion';
import { definition } from '../dataset/definition';
import { folding } from './folding';
import { graph } from '../dataset/graph';
import { highlights } from '../dataset/highlights';
import { hover } from '../dataset/hover';
import { parseLines } from './model';
import type { LinesModel } from './lines';
import { references } from '../dataset/references';
import { symbols } from '../dataset/symbols';
import { calledTools } from '../dataset/tools';
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
