import { EVALUATED_MODULES, isMachineModule, isThirdPartyModule } from '../../python';
import { PyError, PyObject, type Value } from '../values';
import { jsonFunctions } from './json';
import { mathMembers } from './math';
import { RE_FLAGS, reFunctions } from './re';
import { Refused, refuseInternals } from './refused';
import { stringMembers } from './string';

/**
 * The Python modules a rule may import besides the Guardrails library. The official analyzer imports any of them
 * and runs what the rule calls, as real Python. Here the pure, deterministic ones that rules reach for are evaluated
 * (`json`, `re`, `math`, `string`), and nothing else is ever run: a rule that uses another module, a name these
 * modules do not provide, or Python's internals through them (`json.__builtins__`) is reported as not evaluated,
 * naming what it uses and why.
 */

/** Why a module is not evaluated, in the words of a notice ("it calls os.system, which <reason>"). */
export function moduleRefusal(module: string): string {
  const top = module.split('.')[0];
  if (isMachineModule(top)) {
    return `could act on the machine or the network (module ${top}): the local evaluator never runs it, where the official analyzer would`;
  }
  if (isThirdPartyModule(module)) return `needs the Python module ${module}, whose code the local evaluator never runs`;
  return `needs the Python module ${module}, which the local evaluator does not run (of Python's own modules it evaluates ${Object.keys(EVALUATED_MODULES).join(', ')})`;
}

/** An evaluated module (`import json`): its members, each Python's. */
export class StandardModule extends PyObject {
  readonly typeName = 'module';
  constructor(readonly name: string, private readonly members: Record<string, Value>) {
    super();
  }

  attribute(member: string): Value {
    refuseInternals(this.name, member);
    if (Object.prototype.hasOwnProperty.call(this.members, member)) return this.members[member];
    if (!EVALUATED_MODULES[this.name].includes(member)) throw new PyError('AttributeError', `module '${this.name}' has no attribute '${member}'`);
    const provided = Object.keys(this.members).filter((m) => !/^[A-Z]+$/.test(m)).join(', ');
    return new Refused(`${this.name}.${member}`, `is not provided by the local evaluator (of ${this.name} it evaluates ${provided})`);
  }

  /** Whether the evaluator provides this name of the module (else a rule that uses it is not evaluated). */
  provides(member: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.members, member);
  }

  repr(): string {
    return `<module '${this.name}'>`;
  }
}

let modules: Map<string, StandardModule> | undefined;

function evaluatedModules(): Map<string, StandardModule> {
  if (!modules) {
    const re: Record<string, Value> = { ...reFunctions(), ...RE_FLAGS };
    modules = new Map([
      ['json', new StandardModule('json', jsonFunctions())],
      ['re', new StandardModule('re', re)],
      ['math', new StandardModule('math', mathMembers())],
      ['string', new StandardModule('string', stringMembers())],
    ]);
  }
  return modules;
}

/** Whether `from <module> import <name>` names something the evaluator provides (for an evaluated module). */
export function providedName(module: string, name: string): boolean {
  return evaluatedModules().get(module)?.provides(name) ?? false;
}

/** The value `import <module>` binds, for a module outside the Guardrails library: evaluated, or refused. */
export function pythonModule(module: string): Value {
  return evaluatedModules().get(module) ?? new Refused(module, moduleRefusal(module));
}

/** The value `from <module> import <name>` binds, for a module outside the Guardrails library. */
export function pythonModuleMember(module: string, name: string): Value {
  const evaluated = evaluatedModules().get(module);
  if (evaluated) return evaluated.attribute(name);
  return new Refused(`${module}.${name}`, moduleRefusal(module));
}
