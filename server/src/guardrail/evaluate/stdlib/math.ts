import { iterate } from '../pyops';
import { PyError, PyFunction, PyTuple, typeName, type Value } from '../values';

/**
 * Python's `math` module for rules: its constants and functions with Python's argument checks and errors ("math
 * domain error", "math range error", "must be real number, not str"). Integer results (floor, ceil, factorial, gcd,
 * comb, …) are exact up to 2**53, beyond which JavaScript's numbers round where Python's ints do not. Functions that
 * JavaScript's Math computes (sin, exp, log, …) agree with CPython's C library to the last digit or within one
 * unit in the last place; erf, erfc, gamma and lgamma are computed here, to about 1e-15 relative.
 */

const domainError = () => new PyError('ValueError', 'math domain error');
const rangeError = () => new PyError('OverflowError', 'math range error');

function real(v: Value | undefined): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return Number(v);
  throw new PyError('TypeError', `must be real number, not ${typeName(v ?? null)}`);
}

function integer(v: Value | undefined): number {
  if (typeof v === 'boolean') return Number(v);
  if (typeof v === 'number' && Number.isInteger(v)) return v;
  throw new PyError('TypeError', `'${typeof v === 'number' ? 'float' : typeName(v ?? null)}' object cannot be interpreted as an integer`);
}

function toInt(x: number): number {
  if (Number.isNaN(x)) throw new PyError('ValueError', 'cannot convert float NaN to integer');
  if (!Number.isFinite(x)) throw new PyError('OverflowError', 'cannot convert float infinity to integer');
  return x;
}

/** A float result: infinite from finite arguments is a range error, NaN from non-NaN arguments a domain error. */
function checked(result: number, ...args: number[]): number {
  if (Number.isNaN(result) && !args.some(Number.isNaN)) throw domainError();
  if (!Number.isFinite(result) && !Number.isNaN(result) && args.every(Number.isFinite)) throw rangeError();
  return result;
}

type Arity = 'one' | 'two' | 'any' | ((args: Value[], kwargs: Map<string, Value>) => void);

/** A math function with CPython's argument checks: METH_O ('one'), two positional ('two'), any number ('any'). */
function fn(name: string, arity: Arity, body: (args: Value[], kwargs: Map<string, Value>) => Value): [string, PyFunction] {
  return [name, new PyFunction(name, (args, kwargs) => {
    if (typeof arity === 'function') arity(args, kwargs);
    else {
      if (kwargs.size > 0) throw new PyError('TypeError', `math.${name}() takes no keyword arguments`);
      if (arity === 'one' && args.length !== 1) throw new PyError('TypeError', `math.${name}() takes exactly one argument (${args.length} given)`);
      if (arity === 'two' && args.length !== 2) throw new PyError('TypeError', `${name} expected 2 arguments, got ${args.length}`);
    }
    return body(args, kwargs);
  })];
}

function unary(name: string, f: (x: number) => number, domain?: (x: number) => boolean): [string, PyFunction] {
  return fn(name, 'one', ([v]) => {
    const x = real(v);
    if (domain && !domain(x)) throw domainError();
    return checked(f(x), x);
  });
}

/** Exact sum of floats (Shewchuk's algorithm, as math.fsum). */
function fsum(values: number[]): number {
  const partials: number[] = [];
  let special = 0;
  let infinite = 0;
  for (let x of values) {
    if (!Number.isFinite(x)) {
      if (Number.isNaN(x)) special = NaN;
      else infinite += x;
      continue;
    }
    let i = 0;
    for (let y of partials) {
      if (Math.abs(x) < Math.abs(y)) [x, y] = [y, x];
      const hi = x + y;
      const lo = y - (hi - x);
      if (lo !== 0) partials[i++] = lo;
      x = hi;
    }
    partials.length = i;
    partials.push(x);
  }
  if (Number.isNaN(special) || Number.isNaN(infinite)) {
    if (Number.isNaN(infinite) && !Number.isNaN(special)) throw new PyError('ValueError', '-inf + inf in fsum');
    return NaN;
  }
  if (infinite !== 0) return infinite;
  let n = partials.length;
  let hi = 0;
  if (n > 0) {
    hi = partials[--n];
    let lo = 0;
    while (n > 0) {
      const x = hi;
      const y = partials[--n];
      hi = x + y;
      const yr = hi - x;
      lo = y - yr;
      if (lo !== 0) break;
    }
    if (n > 0 && ((lo < 0 && partials[n - 1] < 0) || (lo > 0 && partials[n - 1] > 0))) {
      const y = lo * 2;
      const x = hi + y;
      if (y === x - hi) hi = x;
    }
  }
  if (!Number.isFinite(hi)) throw new PyError('OverflowError', 'intermediate overflow in fsum');
  return hi;
}

const SQRT_PI = Math.sqrt(Math.PI);

/** erf by its power series (small arguments) and erfc by its continued fraction (large ones). */
function erfSeries(x: number): number {
  const x2 = x * x;
  let acc = 0;
  let fk = 25.5;
  for (let i = 0; i < 25; i++) {
    acc = 2 + (x2 * acc) / fk;
    fk -= 1;
  }
  return (acc * x * Math.exp(-x2)) / SQRT_PI;
}

function erfcContinuedFraction(x: number): number {
  if (x >= 30) return 0;
  const x2 = x * x;
  let a = 0;
  let da = 0.5;
  let p = 1;
  let pLast = 0;
  let q = da + x2;
  let qLast = 1;
  for (let i = 0; i < 50; i++) {
    a += da;
    da += 2;
    const b = da + x2;
    [p, pLast] = [b * p - a * pLast, p];
    [q, qLast] = [b * q - a * qLast, q];
  }
  return ((p / q) * x * Math.exp(-x2)) / SQRT_PI;
}

function erf(x: number): number {
  if (Number.isNaN(x)) return x;
  const ax = Math.abs(x);
  if (ax < 1.5) return erfSeries(x);
  const cf = erfcContinuedFraction(ax);
  return x > 0 ? 1 - cf : cf - 1;
}

function erfc(x: number): number {
  if (Number.isNaN(x)) return x;
  const ax = Math.abs(x);
  if (ax < 1.5) return 1 - erfSeries(x);
  const cf = erfcContinuedFraction(ax);
  return x > 0 ? cf : 2 - cf;
}

/** Lanczos approximation (g = 7, nine terms). */
const LANCZOS = [0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7];

function gamma(x: number): number {
  if (Number.isNaN(x)) return x;
  if (x === Infinity) return x;
  if (x === -Infinity || (Number.isInteger(x) && x <= 0)) throw domainError();
  if (Number.isInteger(x) && x <= 23) {
    let r = 1;
    for (let i = 2; i < x; i++) r *= i;
    return r;
  }
  if (x < 0.5) {
    const r = Math.PI / (Math.sin(Math.PI * x) * gamma(1 - x));
    if (!Number.isFinite(r)) throw rangeError();
    return r;
  }
  const z = x - 1;
  let a = LANCZOS[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (z + i);
  const r = Math.sqrt(2 * Math.PI) * Math.pow(t, (z + 0.5) / 2) * Math.exp(-t) * Math.pow(t, (z + 0.5) / 2) * a;
  if (!Number.isFinite(r)) throw rangeError();
  return r;
}

function lgamma(x: number): number {
  if (Number.isNaN(x)) return x;
  if (!Number.isFinite(x)) return Infinity;
  if (Number.isInteger(x) && x <= 0) throw domainError();
  if (x === 1 || x === 2) return 0;
  // Where gamma is finite its logarithm is the more accurate; beyond, Lanczos' own logarithmic form.
  if (Math.abs(x) < 170) return Math.log(Math.abs(gamma(x)));
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - lgamma(1 - x);
  const z = x - 1;
  let a = LANCZOS[0];
  const t = z + 7.5;
  for (let i = 1; i < 9; i++) a += LANCZOS[i] / (z + i);
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(a);
}

function gcd(a: number, b: number): number {
  a = Math.abs(a);
  b = Math.abs(b);
  while (b) [a, b] = [b, a % b];
  return a;
}

function numbers(iterable: Value | undefined): number[] {
  return iterate(iterable ?? null).map((v) => real(v));
}

/** IEEE 754 remainder: x - n*y with n the integer nearest x/y (ties to even). */
function remainder(x: number, y: number): number {
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (!Number.isFinite(x) || y === 0) throw domainError();
  if (!Number.isFinite(y)) return x;
  const absy = Math.abs(y);
  const m = ((Math.abs(x) % absy) + absy) % absy;
  const c = absy - m;
  let r: number;
  if (m < c) r = m;
  else if (m > c) r = -c;
  else r = m - 2 * ((0.5 * (Math.abs(x) - m)) % absy);
  return x < 0 ? -r : r;
}

function nextAfter(x: number, y: number): number {
  if (Number.isNaN(x) || Number.isNaN(y)) return NaN;
  if (x === y) return y;
  if (x === 0) return y > 0 ? Number.MIN_VALUE : -Number.MIN_VALUE;
  const buffer = new DataView(new ArrayBuffer(8));
  buffer.setFloat64(0, x);
  let bits = buffer.getBigUint64(0);
  bits += (y > x) === (x > 0) ? 1n : -1n;
  buffer.setBigUint64(0, bits);
  return buffer.getFloat64(0);
}

function frexp(x: number): [number, number] {
  if (x === 0 || !Number.isFinite(x)) return [x, 0];
  let e = Math.max(-1073, Math.floor(Math.log2(Math.abs(x))) + 1);
  let m = x * Math.pow(2, -e);
  while (Math.abs(m) < 0.5) {
    m *= 2;
    e--;
  }
  while (Math.abs(m) >= 1) {
    m /= 2;
    e++;
  }
  return [m, e];
}

function ldexp(x: number, i: number): number {
  if (x === 0 || !Number.isFinite(x)) return x;
  let r = x;
  let e = i;
  // Scale in steps that stay within the float range, so that subnormal results round once.
  while (e > 1000) {
    r *= 2 ** 1000;
    e -= 1000;
  }
  while (e < -1000) {
    r *= 2 ** -1000;
    e += 1000;
    if (r === 0) break;
  }
  r *= 2 ** e;
  if (!Number.isFinite(r)) throw rangeError();
  return r;
}

function comb(n: number, k: number): number {
  if (n < 0) throw new PyError('ValueError', 'n must be a non-negative integer');
  if (k < 0) throw new PyError('ValueError', 'k must be a non-negative integer');
  if (k > n) return 0;
  k = Math.min(k, n - k);
  let r = 1;
  for (let i = 1; i <= k; i++) r = (r * (n - k + i)) / i;
  return Math.round(r);
}

export function mathMembers(): Record<string, Value> {
  const members: Record<string, Value> = {
    pi: Math.PI, e: Math.E, tau: 2 * Math.PI, inf: Infinity, nan: NaN,
  };
  const functions: [string, PyFunction][] = [
    unary('sqrt', Math.sqrt, (x) => x >= 0 || Number.isNaN(x)),
    unary('cbrt', Math.cbrt),
    unary('exp', Math.exp),
    unary('exp2', (x) => 2 ** x),
    unary('expm1', Math.expm1),
    unary('log2', Math.log2, (x) => x > 0 || Number.isNaN(x)),
    unary('log10', Math.log10, (x) => x > 0 || Number.isNaN(x)),
    unary('log1p', Math.log1p, (x) => x > -1 || Number.isNaN(x)),
    unary('fabs', Math.abs),
    unary('sin', Math.sin, (x) => Number.isFinite(x) || Number.isNaN(x)),
    unary('cos', Math.cos, (x) => Number.isFinite(x) || Number.isNaN(x)),
    unary('tan', Math.tan, (x) => Number.isFinite(x) || Number.isNaN(x)),
    unary('asin', Math.asin, (x) => Math.abs(x) <= 1 || Number.isNaN(x)),
    unary('acos', Math.acos, (x) => Math.abs(x) <= 1 || Number.isNaN(x)),
    unary('atan', Math.atan),
    unary('sinh', Math.sinh),
    unary('cosh', Math.cosh),
    unary('tanh', Math.tanh),
    unary('asinh', Math.asinh),
    unary('acosh', Math.acosh, (x) => x >= 1 || Number.isNaN(x)),
    unary('atanh', Math.atanh, (x) => Math.abs(x) < 1 || Number.isNaN(x)),
    unary('degrees', (x) => x * (180 / Math.PI)),
    unary('radians', (x) => x * (Math.PI / 180)),
    unary('erf', erf),
    unary('erfc', erfc),
    unary('gamma', gamma),
    unary('lgamma', lgamma),
    fn('ceil', 'one', ([x]) => toInt(Math.ceil(real(x)))),
    fn('floor', 'one', ([x]) => toInt(Math.floor(real(x)))),
    fn('trunc', 'one', ([x]) => toInt(Math.trunc(real(x)))),
    fn('isfinite', 'one', ([x]) => Number.isFinite(real(x))),
    fn('isinf', 'one', ([v]) => {
      const x = real(v);
      return !Number.isFinite(x) && !Number.isNaN(x);
    }),
    fn('isnan', 'one', ([x]) => Number.isNaN(real(x))),
    fn('log', (args, kwargs) => {
      if (kwargs.size > 0) throw new PyError('TypeError', 'log() takes no keyword arguments');
      if (args.length < 1 || args.length > 2) throw new PyError('TypeError', 'math.log requires 1 to 2 arguments');
    }, ([v, base]) => {
      const x = real(v);
      if (!(x > 0) && !Number.isNaN(x)) throw domainError();
      if (base === undefined) return Math.log(x);
      const b = real(base);
      if (!(b > 0) && !Number.isNaN(b)) throw domainError();
      if (b === 1) throw new PyError('ZeroDivisionError', 'float division by zero');
      return Math.log(x) / Math.log(b);
    }),
    fn('pow', 'two', ([a, b]) => {
      const x = real(a);
      const y = real(b);
      if (x === 1 || y === 0) return 1;
      if (x === 0 && y < 0) throw domainError();
      if (x < 0 && Number.isFinite(x) && !Number.isInteger(y) && Number.isFinite(y)) throw domainError();
      return checked(Math.pow(x, y), x, y);
    }),
    fn('atan2', 'two', ([y, x]) => Math.atan2(real(y), real(x))),
    fn('copysign', 'two', ([a, b]) => {
      const x = Math.abs(real(a));
      const y = real(b);
      return y < 0 || Object.is(y, -0) ? -x : x;
    }),
    fn('fmod', 'two', ([a, b]) => {
      const x = real(a);
      const y = real(b);
      if (((!Number.isFinite(x) && !Number.isNaN(x)) || y === 0) && !Number.isNaN(y)) throw domainError();
      return x % y;
    }),
    fn('remainder', 'two', ([x, y]) => remainder(real(x), real(y))),
    fn('modf', 'one', ([v]) => {
      const x = real(v);
      if (!Number.isFinite(x)) return new PyTuple(Number.isNaN(x) ? [x, x] : [x > 0 ? 0 : -0, x]);
      const whole = Math.trunc(x);
      return new PyTuple([x - whole, whole]);
    }),
    fn('frexp', 'one', ([x]) => new PyTuple(frexp(real(x)))),
    fn('ldexp', 'two', ([x, i]) => ldexp(real(x), integer(i))),
    fn('nextafter', 'two', ([x, y]) => nextAfter(real(x), real(y))),
    fn('ulp', 'one', ([v]) => {
      const x = Math.abs(real(v));
      if (!Number.isFinite(x)) return x;
      if (x === Number.MAX_VALUE) return x - nextAfter(x, 0);
      return nextAfter(x, Infinity) - x;
    }),
    fn('isclose', (args, kwargs) => {
      if (args.length > 2) throw new PyError('TypeError', `isclose() takes exactly 2 positional arguments (${args.length} given)`);
      for (const key of kwargs.keys()) if (!['a', 'b', 'rel_tol', 'abs_tol'].includes(key)) throw new PyError('TypeError', `isclose() got an unexpected keyword argument '${key}'`);
      ['a', 'b'].forEach((name, i) => {
        if (args.length <= i && !kwargs.has(name)) throw new PyError('TypeError', `isclose() missing required argument '${name}' (pos ${i + 1})`);
      });
    }, (args, kwargs) => {
      const a = real(args[0] ?? kwargs.get('a'));
      const b = real(args[1] ?? kwargs.get('b'));
      const rel = kwargs.has('rel_tol') ? real(kwargs.get('rel_tol')) : 1e-9;
      const abs = kwargs.has('abs_tol') ? real(kwargs.get('abs_tol')) : 0;
      if (rel < 0 || abs < 0) throw new PyError('ValueError', 'tolerances must be non-negative');
      if (a === b) return true;
      if (!Number.isFinite(a) || !Number.isFinite(b)) return false;
      const diff = Math.abs(b - a);
      return diff <= Math.abs(rel * b) || diff <= Math.abs(rel * a) || diff <= abs;
    }),
    fn('factorial', 'one', ([v]) => {
      const n = integer(v);
      if (n < 0) throw new PyError('ValueError', 'factorial() not defined for negative values');
      let r = 1;
      for (let i = 2; i <= n; i++) r *= i;
      return r;
    }),
    fn('gcd', 'any', (args) => args.reduce<number>((a, v) => gcd(a, integer(v)), 0)),
    fn('lcm', 'any', (args) => args.reduce<number>((a, v) => {
      const b = integer(v);
      return a === 0 || b === 0 ? 0 : Math.abs((a / gcd(a, b)) * b);
    }, 1)),
    fn('isqrt', 'one', ([v]) => {
      const n = integer(v);
      if (n < 0) throw new PyError('ValueError', 'isqrt() argument must be nonnegative');
      let r = Math.floor(Math.sqrt(n));
      while (r * r > n) r--;
      while ((r + 1) * (r + 1) <= n) r++;
      return r;
    }),
    fn('comb', 'two', ([n, k]) => comb(integer(n), integer(k))),
    fn('perm', (args, kwargs) => {
      if (kwargs.size > 0) throw new PyError('TypeError', 'math.perm() takes no keyword arguments');
      if (args.length < 1) throw new PyError('TypeError', 'perm expected at least 1 argument, got 0');
      if (args.length > 2) throw new PyError('TypeError', `perm expected at most 2 arguments, got ${args.length}`);
    }, ([nv, kv]) => {
      const n = integer(nv);
      const k = kv === undefined || kv === null ? n : integer(kv);
      if (n < 0) throw new PyError('ValueError', 'n must be a non-negative integer');
      if (k < 0) throw new PyError('ValueError', 'k must be a non-negative integer');
      if (k > n) return 0;
      let r = 1;
      for (let i = n - k + 1; i <= n; i++) r *= i;
      return r;
    }),
    fn('hypot', 'any', (args) => Math.hypot(...args.map((v) => real(v)))),
    fn('dist', 'two', ([pv, qv]) => {
      const p = numbers(pv);
      const q = numbers(qv);
      if (p.length !== q.length) throw new PyError('ValueError', 'both points must have the same number of dimensions');
      return Math.hypot(...p.map((x, i) => x - q[i]));
    }),
    fn('fsum', 'one', ([seq]) => fsum(numbers(seq))),
    fn('prod', (args, kwargs) => {
      if (args.length === 0) throw new PyError('TypeError', 'prod() takes exactly 1 positional argument (0 given)');
      if (args.length + kwargs.size > 2) throw new PyError('TypeError', `prod() takes at most 2 arguments (${args.length + kwargs.size} given)`);
      if (args.length > 1) throw new PyError('TypeError', `prod() takes exactly 1 positional argument (${args.length} given)`);
      for (const key of kwargs.keys()) if (key !== 'start') throw new PyError('TypeError', `'${key}' is an invalid keyword argument for prod()`);
    }, ([iterable], kwargs) => {
      const start = kwargs.has('start') ? real(kwargs.get('start')) : 1;
      return numbers(iterable).reduce((a, b) => a * b, start);
    }),
  ];
  for (const [name, f] of functions) members[name] = f;
  return members;
}
