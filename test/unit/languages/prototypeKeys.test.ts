import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { defaultSettings } from '../../../server/src/common/languageService';
import { serviceFor } from '../../../server/src/languages';

const context = { settings: defaultSettings };
const names = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'];

const documents: [string, string][] = [
  ['agent-trace', JSON.stringify(names.map((name) => ({ role: name, [name]: name, content: name, tool_calls: [{ id: name, type: 'function', function: { name, arguments: { [name]: 1 } } }] })))],
  ['agent-trace-jsonl', names.map((name) => JSON.stringify({ messages: [{ role: name, content: 'x' }], [name]: name, metadata: { [name]: 1 } })).join('\n')],
  ['agent-trace-jsonl', names.map((name, i) => JSON.stringify({
    call: { call_id: `c${i}`, tool_name: name, arguments: { [name]: name }, [name]: 1 },
    result: { call_id: `c${i}`, status: name, [name]: name, validations: [{ kind: name }] },
  })).join('\n')],
  ['guardrail', names.map((name) => `from ${name} import ${name}\nraise "x" if:\n    (m: ${name})\n    m.${name}(${name}) == ${name}.${name}\n`).join('\n')],
];

/** Every offset of the text: nothing a key names may come from Object.prototype. */
function sweep(languageId: string, text: string): void {
  const service = serviceFor(languageId)!;
  const model = service.parse({ uri: 'file:///proto', version: 1, text });
  service.validate(model, context);
  service.symbols(model);
  for (let offset = 0; offset <= text.length; offset++) {
    const hover = service.hover(model, offset, context);
    if (hover) {
      assert.equal(typeof hover.markdown, 'string', `hover at ${offset}`);
      assert.doesNotMatch(hover.markdown, /\[object |function \w*\(|\[native code\]/, `hover at ${offset}: ${hover.markdown}`);
    }
    for (const entry of service.completion(model, offset, context)) {
      assert.equal(typeof entry.label, 'string');
      if (entry.detail !== undefined) assert.equal(typeof entry.detail, 'string', `completion detail at ${offset}`);
      if (entry.documentation !== undefined) assert.equal(typeof entry.documentation, 'string', `completion documentation at ${offset}`);
    }
    service.definition(model, offset);
    service.highlights(model, offset);
  }
}

describe('keys named like Object.prototype members', () => {
  for (const [languageId, text] of documents) {
    it(`${languageId}: hovers and completions are text, never inherited values`, () => sweep(languageId, text));
  }

  it('a role named constructor hovers as an unknown role', () => {
    const service = serviceFor('agent-trace')!;
    const text = '[{"role": "constructor", "content": "x"}]';
    const hover = service.hover(service.parse({ uri: 'file:///t', version: 1, text }), text.indexOf('constructor') + 2, context);
    assert.equal(hover?.markdown, '**constructor** — a role this format does not define; tools treat it as an ordinary message.');
  });
});
