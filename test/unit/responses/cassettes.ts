/**
 * The OpenAI Responses bodies recorded in the corpus's HTTP cassettes (`formats/api-cassettes/openai_responses_*.yaml`,
 * YAML with each body parsed under `parsed_body`), as the JSON documents a user would have on disk: each request and
 * response body of a `/v1/responses` exchange, pretty-printed.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';

const yaml = createRequire(__filename)('js-yaml') as { load(text: string): unknown };

export interface RecordedBody {
  /** `openai_responses_model_simple_response_with_tool_call.yaml #1 request`. */
  name: string;
  side: 'request' | 'response';
  text: string;
}

interface Cassette {
  interactions: { request: { uri: string; parsed_body?: unknown }; response: { parsed_body?: unknown } }[];
}

export function recordedBodies(corpus: string): RecordedBody[] {
  const folder = path.join(corpus, 'formats/api-cassettes');
  const bodies: RecordedBody[] = [];
  for (const file of readdirSync(folder).filter((name) => name.startsWith('openai_responses')).sort()) {
    const cassette = yaml.load(readFileSync(path.join(folder, file), 'utf8')) as Cassette;
    cassette.interactions.forEach((interaction, i) => {
      if (!interaction.request.uri.endsWith('/v1/responses')) return;
      for (const side of ['request', 'response'] as const) {
        const body = interaction[side].parsed_body;
        if (body !== undefined) bodies.push({ name: `${file} #${i} ${side}`, side, text: `${JSON.stringify(body, null, 2)}\n` });
      }
    });
  }
  return bodies;
}
