import type { Highlight } from '../../common/types';
import type { LinesModel } from '../lines';
import { highlights } from '../../calls/references';
import { agentguardCalls } from './calls';

/** A call id lights up with its other mention (call and result). */
export function agentguardHighlights(model: LinesModel, offset: number): Highlight[] {
  return highlights(agentguardCalls(model), offset);
}
