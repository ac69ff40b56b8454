import { isThirdPartyModule } from '../../python';
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

export const EVALUATED_MODULES = ['json', 're', 'math', 'string'] as const;

/**
 * Modules that can act on the machine or the network: run programs, read, write or delete files, open connections,
 * load code, read the environment. Imported in a rule, they are never run here.
 */
const MACHINE_MODULES = new Set((
  'os posix nt posixpath ntpath subprocess socket socketserver ssl select selectors shutil pathlib glob fnmatch tempfile io '
  + 'sys builtins importlib imp pkgutil runpy code codeop ctypes multiprocessing threading _thread concurrent asyncio signal '
  + 'pty tty termios fcntl resource mmap pwd grp spwd crypt platform sysconfig site webbrowser http urllib ftplib poplib '
  + 'imaplib nntplib smtplib smtpd telnetlib xmlrpc wsgiref pickle marshal shelve dbm sqlite3 zipfile tarfile gzip bz2 '
  + 'lzma zipimport fileinput filecmp linecache tracemalloc faulthandler gc inspect logging msvcrt winreg winsound '
  + 'ensurepip venv distutils pdb bdb trace cProfile profile timeit requests urllib3 httpx aiohttp paramiko boto3 '
  + 'docker pexpect sh plumbum fabric'
).split(' '));

/** Why a module is not evaluated, in the words of a notice ("it calls os.system, which <reason>"). */
export function moduleRefusal(module: string): string {
  const top = module.split('.')[0];
  if (MACHINE_MODULES.has(top)) {
    return `could act on the machine or the network (module ${top}): the local evaluator never runs it, where the official analyzer would`;
  }
  if (isThirdPartyModule(module)) return `needs the Python module ${module}, whose code the local evaluator never runs`;
  return `needs the Python module ${module}, which the local evaluator does not run (of Python's own modules it evaluates ${EVALUATED_MODULES.join(', ')})`;
}

export function isMachineModule(module: string): boolean {
  return MACHINE_MODULES.has(module.split('.')[0]);
}

/** The public names of Python 3.11's modules (dir() without private names): what a rule may find there. */
const PYTHON_NAMES: Record<string, string> = {
  json: 'JSONDecodeError JSONDecoder JSONEncoder codecs decoder detect_encoding dump dumps encoder load loads scanner',
  re: 'A ASCII DEBUG DOTALL I IGNORECASE L LOCALE M MULTILINE Match NOFLAG Pattern RegexFlag S Scanner T TEMPLATE U UNICODE '
    + 'VERBOSE X compile copyreg enum error escape findall finditer fullmatch functools match purge search split sub subn template',
  math: 'acos acosh asin asinh atan atan2 atanh cbrt ceil comb copysign cos cosh degrees dist e erf erfc exp exp2 expm1 fabs '
    + 'factorial floor fmod frexp fsum gamma gcd hypot inf isclose isfinite isinf isnan isqrt lcm ldexp lgamma log log10 '
    + 'log1p log2 modf nan nextafter perm pi pow prod radians remainder sin sinh sqrt tan tanh tau trunc ulp',
  string: 'Formatter Template ascii_letters ascii_lowercase ascii_uppercase capwords digits hexdigits octdigits printable '
    + 'punctuation whitespace',
};

/** An evaluated module (`import json`): its members, each Python's. */
export class StandardModule extends PyObject {
  readonly typeName = 'module';
  constructor(readonly name: string, private readonly members: Record<string, Value>) {
    super();
  }

  attribute(member: string): Value {
    refuseInternals(this.name, member);
    if (Object.prototype.hasOwnProperty.call(this.members, member)) return this.members[member];
    if (!PYTHON_NAMES[this.name].split(' ').includes(member)) throw new PyError('AttributeError', `module '${this.name}' has no attribute '${member}'`);
    const provided = Object.keys(this.members).filter((m) => !/^[A-Z]+$/.test(m)).join(', ');
    return new Refused(`${this.name}.${member}`, `is not provided by the local evaluator (of ${this.name} it evaluates ${provided})`);
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
