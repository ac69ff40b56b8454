"""What the case scripts share: Python's exception as the tests compare it, and writing the JSON data file."""
import json
import os
import re
import sys


def exception(e):
    """The exception's type name (re.error for re's own) and message."""
    return {'type': 're.error' if isinstance(e, re.error) else type(e).__name__, 'message': str(e)}


def write(name, cases):
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), name)
    with open(path, 'w', encoding='utf-8') as f:
        json.dump({'python': sys.version.split()[0], 'cases': cases}, f, ensure_ascii=True, indent=1)
        f.write('\n')
    print(f'{name}: {len(cases)} cases, {sum(1 for c in cases if "error" in c)} of them errors')
