"""Expressions that call Python's json, re, math and string modules, with Python 3.11's values (issue 21).

Run once with Python 3.11 and commit the output (the tests read stdlib-cases.json and never run this):
    python3 test/unit/guardrail/evaluate/python/stdlib_cases.py
Each case is a rule-language expression (its string literals read as the analyzer reads them: backslashes kept)
and, where it differs, the same expression in Python; the result is written as a typed tree.
"""
import json
import math
import re
import string
import sys

from case_data import exception, write

assert sys.version_info[:2] == (3, 11), 'generate with Python 3.11'

# Expressions in the rule language; Python evaluates each with its string literals made raw (see as_python).
CASES = [
    # json.loads
    'json.loads(\'{"a": [1, 2.5, "x", true, false, null], "b": {"c": "d"}}\')',
    'json.loads(\'"caf\\u00e9 \\ud83d\\ude00"\')',
    'json.loads(\'"\\ud800"\')',
    'json.loads(\'[NaN, Infinity, -Infinity]\')',
    'json.loads(\'{"a": 1, "a": 2, "b": 3}\')',
    'json.loads(\'  [ ]  \')',
    'json.loads("-0")',
    'json.loads("1e3")',
    'json.loads("12.5e-1")',
    'json.loads("")',
    'json.loads("  ")',
    'json.loads("{")',
    'json.loads(\'{"a"\')',
    'json.loads(\'{"a": 1\')',
    'json.loads(\'{"a": 1,}\')',
    'json.loads("[1,]")',
    'json.loads("[1 2]")',
    'json.loads(\'"abc\')',
    'json.loads(\'"a\\x"\')',
    'json.loads(\'"\\u12"\')',
    'json.loads(\'"\\ud800\\u12"\')',
    'json.loads("1 2")',
    'json.loads("01")',
    'json.loads("nul")',
    'json.loads("[1,\\n2,,3]")',
    'json.loads(\'{"k": "\u00e9", "t": "x\\ty"}\')["t"]',
    'json.loads(\'{"amount": 150, "currency": "EUR"}\')["amount"] > 100',
    'json.loads(5)',
    'json.loads(None)',
    'json.loads("[1, 2]", parse_int=str)',
    'json.loads("{}", strict=False)',
    'json.loads("{}", bogus=1)',
    'json.loads()',
    # json.dumps
    'json.dumps({"a": [1, 2.5, None, True], "b": "x"})',
    'json.dumps({"b": 1, "a": {"d": 2, "c": 3}}, sort_keys=True)',
    'json.dumps({"a": [1, {"b": []}], "c": {}}, indent=2)',
    'json.dumps([1, [2, 3]], indent=0)',
    'json.dumps([1, 2], indent="\\t")',
    'json.dumps({"a": 1, "b": [1, 2]}, separators=(",", ":"))',
    'json.dumps({"a": 1, "b": 2}, indent=2, separators=(", ", ": "))',
    'json.dumps("caf\u00e9 \u2014 \U0001f600")',
    'json.dumps("caf\u00e9 \u2014 \U0001f600", ensure_ascii=False)',
    'json.dumps([0.1, 1e-7, 1e16, 123456.789, -0.5, 3.0e20])',
    'json.dumps(json.loads("[NaN, Infinity]"))',
    'json.dumps(json.loads("[NaN]"), allow_nan=False)',
    'json.dumps((1, "a"))',
    'json.dumps(re.compile("a"))',
    'json.dumps({"z": 1, "\u00e9": 2, "a": 3, "\U0001f600": 4, "\uffff": 5}, sort_keys=True, ensure_ascii=False)',
    'json.dumps([], indent=2) + json.dumps({}, indent=2)',
    'json.dumps("x", bogus=1)',
    'json.loads(json.dumps({"k": ["v", 1]}))',
    # re: module functions
    're.match("a+", "aaab")',
    're.match("b", "ab")',
    're.search("b+", "abbbc")',
    're.fullmatch("a|ab", "ab")',
    're.fullmatch("a", "ab")',
    're.findall("\\d+", "a1b22c333")',
    're.findall("(\\w)(\\d)", "a1 b2 c")',
    're.findall("(a)|b", "ab")',
    're.findall("", "ab")',
    '[m.span() for m in re.finditer("o", "foo boo")]',
    '[m.group(0) for m in re.finditer("\\b\\w", "ab cd")]',
    're.sub("\\d", "#", "a1b22")',
    're.sub("(\\w+)@(\\w+)", "\\2 at \\1", "joe@site ann@web")',
    're.sub("(?P<w>\\w+)", "<\\g<w>>", "a b")',
    're.sub("a", "\\g<0>\\g<0>", "cat")',
    're.sub("a", "-", "aaaa", 2)',
    're.sub("a", "-", "aaaa", count=1)',
    're.sub("x*", "-", "abxd")',
    're.sub("(a)|b", "[\\1]", "ab")',
    're.sub("a", "\\n\\t\\\\", "a")',
    're.sub("a", "\\&", "a")',
    're.sub("a", "\\q", "a")',
    're.sub("(a)", "\\2", "a")',
    're.sub("(a)", "\\g<x>", "a")',
    're.sub("(a)", "\\g<1", "a")',
    're.sub("a", "b", "xyz")',
    're.subn("a", "b", "banana")',
    're.split(",\\s*", "a, b,c")',
    're.split("(,)", "a,b")',
    're.split("(a)|b", "xaybz")',
    're.split(",", "a,b,c,d", 2)',
    're.split(",", "a,b,c", maxsplit=1)',
    're.split("x*", "axbc")',
    're.split("\\b", "a b")',
    're.split(",", "abc")',
    're.escape("a.b*c (d) e-f_g")',
    're.search("A", "a", re.I)',
    're.search("^b", "a\\nb", re.M)',
    're.search("a.b", "a\\nb", re.S + re.I)',
    're.I + re.M + re.S + re.X + re.A',
    're.search("(", "x")',
    're.search("a", 5)',
    're.search(5, "a")',
    're.search("a")',
    're.search("a", "a", 0, 1)',
    're.search("a", "a", flags="x")',
    're.search(re.compile("a"), "ba")',
    're.search(re.compile("a"), "ba", re.I)',
    # re: patterns
    're.compile("a(b)", re.I)',
    're.compile("a")',
    're.compile("(?P<x>a)(b)").groupindex',
    're.compile("(a)(b)").groups',
    're.compile("a", re.M).flags',
    're.compile("(?a)a").flags',
    're.compile("x+").pattern',
    're.compile("a").search("xxaxa", 3)',
    're.compile("a").search("xxaxa", 0, 2)',
    're.compile("^a").search("ba", 1)',
    're.compile("a$").search("ab", 0, 1)',
    're.compile("a").match("ba", 1)',
    're.compile("a").fullmatch("ba", 1)',
    're.compile("a").findall("aXaXa", 1, 4)',
    're.compile("a").search("\U0001f600a", 1)',
    're.compile("a").search("aa", -5, 99)',
    're.compile(",").split("a,b,c", 1)',
    're.compile("o").sub("0", "foo", 1)',
    're.compile("o").subn("0", "foo")',
    '[m.start() for m in re.compile("a").finditer("aXa")]',
    # re: match objects
    're.search("(\\w+)@(\\w+)", "mail joe@site now").group(0, 1, 2)',
    're.search("(?P<user>\\w+)@(?P<host>\\w+)", "joe@site").group("host")',
    're.search("(?P<user>\\w+)@(?P<host>\\w+)?", "joe@").groupdict()',
    're.search("(?P<user>\\w+)@(?P<host>\\w+)?", "joe@").groupdict("-")',
    're.search("(a)(b)?", "a").groups()',
    're.search("(a)(b)?", "a").groups("")',
    're.search("(a)(b)?", "xa").span()',
    're.search("(a)(b)?", "xa").span(2)',
    're.search("(a)(b)?", "xab").start(2)',
    're.search("(a)(b)?", "xab").end(1)',
    're.search("(a)(b)?", "xab").group(3)',
    're.search("(a)(b)?", "xab").group("x")',
    're.search("(a)(b)", "ab")[2]',
    're.search("(a)(b)", "ab")[0]',
    're.search("((a)b)", "ab").lastindex',
    're.search("(a)(b)", "ab").lastindex',
    're.match("(a(b))", "ab").lastindex',
    're.match("(a)()", "a").lastindex',
    're.match("((a)|b)+", "ab").lastindex',
    're.search("(?P<x>a)(?P<y>b)", "ab").lastgroup',
    're.search("a", "a").lastindex',
    're.search("(a)(b)", "xab").expand("\\2-\\1")',
    're.search("b", "abc").string',
    're.search("b", "abc").pos',
    're.search("b", "abc").re',
    're.search("b", "a\U0001f600bc").span()',
    're.search("\U0001f600(.)", "a\U0001f600bc").group(1)',
    're.search("b+", "abbbc")',
    're.search("x" * 60, "x" * 70)',
    're.search("a", "a") == None',
    're.search("a", "b") is None',
    # math
    'math.pi',
    'math.e',
    'math.tau',
    'math.inf',
    'math.floor(2.7)',
    'math.floor(-2.5)',
    'math.ceil(2.1)',
    'math.trunc(-2.7)',
    'math.floor(math.inf)',
    'math.sqrt(2)',
    'math.sqrt(-1)',
    'math.sqrt("4")',
    'math.log(100, 10)',
    'math.log(8, 2)',
    'math.log(0)',
    'math.log2(1024)',
    'math.log10(0.001)',
    'math.exp(1)',
    'math.exp(1000)',
    'math.pow(2, 10)',
    'math.pow(0, -1)',
    'math.pow(-8, 1 / 3)',
    'math.fabs(-3.5)',
    'math.isclose(0.1 + 0.2, 0.3)',
    'math.isclose(1, 1.1, rel_tol=0.2)',
    'math.isclose(1, 2, abs_tol=-1)',
    'math.fsum([0.1] * 10)',
    'math.fsum([1e100, 1, -1e100])',
    'math.factorial(10)',
    'math.factorial(-1)',
    'math.gcd(12, 18, 27)',
    'math.lcm(4, 6)',
    'math.comb(10, 3)',
    'math.perm(5, 2)',
    'math.perm(5)',
    'math.isqrt(99)',
    'math.hypot(3, 4)',
    'math.dist([0, 0], [3, 4])',
    'math.dist([0], [3, 4])',
    'math.prod([2, 3, 4])',
    'math.prod([2, 3], start=10)',
    'math.copysign(3, -0.0)',
    'math.fmod(7, 3)',
    'math.fmod(-7, 3)',
    'math.fmod(1, 0)',
    'math.remainder(7, 2)',
    'math.remainder(5, 2)',
    'math.modf(3.25)',
    'math.frexp(8)',
    'math.ldexp(0.5, 4)',
    'math.degrees(math.pi)',
    'math.radians(180)',
    'math.atan2(1, 1)',
    'math.sin(math.pi / 6)',
    'math.cos(0)',
    'math.tan(math.pi / 4)',
    'math.asin(2)',
    'math.isnan(math.nan)',
    'math.isinf(-math.inf)',
    'math.isfinite(1e308 * 10)',
    'math.erf(0.5)',
    'math.erfc(2)',
    'math.gamma(5.5)',
    'math.gamma(0)',
    'math.lgamma(10.5)',
    'math.cbrt(27)',
    'math.exp2(10)',
    'math.expm1(1e-10)',
    'math.log1p(1e-10)',
    'math.nextafter(1, 2)',
    'math.ulp(1)',
    'math.floor(2.7, 1)',
    'math.floor()',
    'math.nope',
    # string
    'string.ascii_letters',
    'string.ascii_lowercase',
    'string.ascii_uppercase',
    'string.digits',
    'string.hexdigits',
    'string.octdigits',
    'string.punctuation',
    'string.whitespace',
    'string.printable',
    'string.capwords("hello   big world")',
    'string.capwords("a-b c-d", "-")',
    '"x" in string.ascii_letters',
]


def typed(v):
    if v is None:
        return ['None']
    if isinstance(v, bool):
        return ['bool', v]
    if isinstance(v, int):
        return ['int', str(v)]
    if isinstance(v, float):
        return ['float', repr(v)]
    if isinstance(v, str):
        return ['str', v]
    if isinstance(v, list):
        return ['list', [typed(x) for x in v]]
    if isinstance(v, tuple):
        return ['tuple', [typed(x) for x in v]]
    if isinstance(v, dict):
        return ['dict', [[k, typed(x)] for k, x in v.items()]]
    if isinstance(v, (re.Match, re.Pattern)):
        return ['object', type(v).__name__, repr(v)]
    if isinstance(v, re.RegexFlag):
        return ['int', str(int(v))]
    if type(v).__name__ == 'callable_iterator':
        return ['list', [typed(x) for x in v]]
    return ['object', type(v).__name__, repr(v)]


def as_python(expression):
    """The expression with each string literal made raw: the analyzer keeps a literal's backslashes as written."""
    out = ''
    i = 0
    while i < len(expression):
        c = expression[i]
        if c in '"\'':
            end = expression.index(c, i + 1)
            out += 'r' + expression[i:end + 1]
            i = end + 1
        else:
            out += c
            i += 1
    return out


namespace = {'json': json, 're': re, 'math': math, 'string': string}
out = []
for expression in CASES:
    case = {'expression': expression}
    try:
        case['value'] = typed(eval(as_python(expression), dict(namespace)))
    except Exception as e:
        case['error'] = exception(e)
    out.append(case)

write('stdlib-cases.json', out)
