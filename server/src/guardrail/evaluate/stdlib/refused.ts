import { NotEvaluated } from '../failure';
import { PyFunction } from '../values';

/**
 * A name the rule may not use here (from a module that is not evaluated): calling it, reading its attributes or
 * using its value stops the rule with a notice naming it (see NotEvaluated). Its attributes are refused the same way
 * (`os.path.exists`).
 */
export class Refused extends PyFunction {
  constructor(readonly path: string, readonly reason: string) {
    super(path, () => {
      throw new NotEvaluated(path, reason);
    }, reason);
  }

  member(name: string): Refused {
    return new Refused(`${this.path}.${name}`, this.reason);
  }

  /** The notice for using it other than by calling it (`os.environ`, `os.sep == "/"`). */
  used(): NotEvaluated {
    return new NotEvaluated(this.path, this.reason, 'uses');
  }
}

/** Whether an attribute name is one of Python's special names (`__class__`, `__globals__`, `__builtins__`). */
export function isDunder(name: string): boolean {
  return name.length > 4 && name.startsWith('__') && name.endsWith('__');
}

/**
 * Python's special names on a module or on an object a module returns (a Pattern, a Match) are how a policy reaches
 * the interpreter (`json.__builtins__`, `re.compile("a").__class__`): the official analyzer follows them, here they
 * stop the rule.
 */
export function refuseInternals(owner: string, name: string): void {
  if (isDunder(name)) {
    throw new NotEvaluated(`${owner}.${name}`, "reaches Python's interpreter internals (a way to run any code): the local evaluator never does that, where the official analyzer would", 'uses');
  }
}
