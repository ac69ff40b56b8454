import type { SyntaxNode } from '@lezer/common';

/**
 * Facts about Python code for the `python_code` detector, from @lezer/python's syntax tree: imported modules, names
 * of Python builtins used, called functions, and whether the code has a syntax error. The analyzer uses CPython's
 * `ast`; Lezer is error-tolerant, so any error node, and Python 2's print statement, count as a syntax error.
 */
export interface PythonFacts {
  imports: (string | null)[];
  builtins: string[];
  functionCalls: string[];
  syntaxError: boolean;
  exception: string;
}

/** Names in Python 3's `builtins` module (what the analyzer compares `Name` nodes against). */
const PYTHON_BUILTINS = new Set(('ArithmeticError AssertionError AttributeError BaseException BaseExceptionGroup BlockingIOError ' +
  'BrokenPipeError BufferError BytesWarning ChildProcessError ConnectionAbortedError ConnectionError ConnectionRefusedError ' +
  'ConnectionResetError DeprecationWarning EOFError Ellipsis EncodingWarning EnvironmentError Exception ExceptionGroup False ' +
  'FileExistsError FileNotFoundError FloatingPointError FutureWarning GeneratorExit IOError ImportError ImportWarning ' +
  'IndentationError IndexError InterruptedError IsADirectoryError KeyError KeyboardInterrupt LookupError MemoryError ' +
  'ModuleNotFoundError NameError None NotADirectoryError NotImplemented NotImplementedError OSError OverflowError ' +
  'PendingDeprecationWarning PermissionError ProcessLookupError RecursionError ReferenceError ResourceWarning RuntimeError ' +
  'RuntimeWarning StopAsyncIteration StopIteration SyntaxError SyntaxWarning SystemError SystemExit TabError TimeoutError True ' +
  'TypeError UnboundLocalError UnicodeDecodeError UnicodeEncodeError UnicodeError UnicodeTranslateError UnicodeWarning ' +
  'UserWarning ValueError Warning ZeroDivisionError __build_class__ __debug__ __doc__ __import__ __loader__ __name__ ' +
  '__package__ __spec__ abs aiter all anext any ascii bin bool breakpoint bytearray bytes callable chr classmethod compile ' +
  'complex copyright credits delattr dict dir divmod enumerate eval exec exit filter float format frozenset getattr globals ' +
  'hasattr hash help hex id input int isinstance issubclass iter len license list locals map max memoryview min next object ' +
  'oct open ord pow print property quit range repr reversed round set setattr slice sorted staticmethod str sum super tuple ' +
  'type vars zip').split(' '));

const NOT_A_NAME_PARENTS = new Set(['ImportStatement', 'ParamList', 'ScopeStatement', 'LambdaExpression']);

type PythonParser = typeof import('@lezer/python').parser;

let strictParser: PythonParser | undefined;

/**
 * Stops at the first syntax error instead of recovering: a program with an error yields no facts anyway. Loaded on
 * first use: building @lezer/python's tables took 50-75 ms of every process's and evaluation worker's start.
 */
function pythonParser(): PythonParser {
  return (strictParser ??= (require('@lezer/python') as typeof import('@lezer/python')).parser.configure({ strict: true }));
}

export function analyzePython(code: string): PythonFacts {
  const facts: PythonFacts = { imports: [], builtins: [], functionCalls: [], syntaxError: false, exception: '' };
  let errorAt = unexpectedIndent(code);
  let tree;
  try {
    tree = errorAt >= 0 ? null : pythonParser().parse(code);
  } catch (e) {
    const at = /(\d+)\s*$/.exec((e as Error).message);
    errorAt = at ? Number(at[1]) : 0;
    tree = null;
  }
  if (!tree) return withError(facts, code, errorAt);
  tree.iterate({
    enter(ref) {
      const name = ref.type.name;
      if (ref.type.isError || name === 'PrintStatement') {
        if (errorAt < 0) errorAt = ref.from;
        return;
      }
      if (name === 'ImportStatement') {
        collectImports(ref.node, code, facts);
      } else if (name === 'CallExpression') {
        const callee = ref.node.firstChild;
        if (callee) {
          const text = code.slice(callee.from, callee.to).replace(/\s+/g, callee.name === 'MemberExpression' || callee.name === 'VariableName' ? '' : ' ').trim();
          if (!facts.functionCalls.includes(text)) facts.functionCalls.push(text);
        }
      } else if (name === 'VariableName' || name === 'PropertyName') {
        const id = code.slice(ref.from, ref.to);
        // Lezer reads any non-ASCII run as a name; CPython's tokenizer accepts only identifier characters.
        if (!IDENTIFIER.test(id) && errorAt < 0) errorAt = ref.from;
        if (name === 'VariableName' && isNameNode(ref.node, code) && PYTHON_BUILTINS.has(id)) facts.builtins.push(id);
      }
    },
  });
  return errorAt >= 0 ? withError(facts, code, errorAt) : facts;
}

/** CPython's ast.parse raises on a syntax error, so the detector reports nothing but the error. */
function withError(facts: PythonFacts, code: string, errorAt: number): PythonFacts {
  const line = code.slice(0, Math.max(0, errorAt)).split('\n').length;
  return { imports: [], builtins: [], functionCalls: [], syntaxError: true, exception: `invalid syntax (<unknown>, line ${line})` };
}

const IDENTIFIER = /^[\p{ID_Start}_][\p{ID_Continue}]*$/u;

/** CPython rejects code whose first statement is indented ("unexpected indent"); Lezer does not. */
function unexpectedIndent(code: string): number {
  let offset = 0;
  for (const line of code.split('\n')) {
    const trimmed = line.trim();
    if (trimmed !== '' && !trimmed.startsWith('#')) return /^[ \t\f]/.test(line) ? offset : -1;
    offset += line.length + 1;
  }
  return -1;
}

function isNameNode(node: SyntaxNode, code: string): boolean {
  const parent = node.parent;
  if (!parent) return true;
  if (NOT_A_NAME_PARENTS.has(parent.name)) return false;
  if ((parent.name === 'FunctionDefinition' || parent.name === 'ClassDefinition') && parent.getChild('VariableName')?.from === node.from) return false;
  const next = node.nextSibling;
  if (parent.name === 'ArgList' && next && next.name === 'AssignOp') return false;
  const previous = node.prevSibling;
  if (parent.name === 'TryStatement' && previous && code.slice(previous.from, previous.to) === 'as') return false;
  return true;
}

function collectImports(node: SyntaxNode, code: string, facts: PythonFacts): void {
  const parts: { name: string; text: string }[] = [];
  for (let c = node.firstChild; c; c = c.nextSibling) parts.push({ name: c.name, text: code.slice(c.from, c.to) });
  if (parts[0]?.text === 'from') {
    let module = '';
    for (let i = 1; i < parts.length && parts[i].text !== 'import'; i++) module += parts[i].text;
    const stripped = module.replace(/^\.+/, '');
    facts.imports.push(stripped === '' ? null : stripped);
    return;
  }
  let current = '';
  let afterAs = false;
  for (const p of parts.slice(1)) {
    if (p.text === ',') {
      if (current) facts.imports.push(current);
      current = '';
      afterAs = false;
    } else if (p.text === 'as') {
      afterAs = true;
    } else if (!afterAs) {
      current += p.text;
    }
  }
  if (current) facts.imports.push(current);
}
