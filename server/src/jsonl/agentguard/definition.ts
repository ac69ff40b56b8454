import type { Target } from '../../common/types';
import type { LinesModel } from '../lines';
import { definition } from '../../calls/definition';
import { agentguardCalls } from './calls';

/** result.call_id and call.call_id lead to each other. */
export function agentguardDefinition(model: LinesModel, offset: number): Target[] {
  return definition(agentguardCalls(model), offset);
}
