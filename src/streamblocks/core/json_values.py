"""Reading JSON whose numbers Python cannot hold.

Python refuses to turn a string of more than ``sys.get_int_max_str_digits()`` digits
(4,300 by default) into an ``int``, and ``json.loads`` raises with it. A model can write
such a number (an argument, a gadget value), and a value JSON holds must never crash a
reader: such an integer is kept as the digits written, a ``str``, which every later step
(``partial``, validation, the AG-UI output's ``json.dumps``) can carry.
"""

from __future__ import annotations

import json
import sys
from typing import Any


def integer(token: str) -> int | str:
    """``int(token)``, or ``token`` itself when it has too many digits to convert."""
    try:
        return int(token)
    except ValueError:
        return token


def loads(text: str) -> Any:
    """``json.loads``, keeping integers too long for ``int`` as their digits."""
    try:
        return json.loads(text)
    except ValueError:
        limit = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") else 0
        if not limit or len(text) <= limit:
            raise
        return json.loads(text, parse_int=integer)
