"""Numbers in and out of chartless without passing through a double.

In: an int, a str, a decimal.Decimal and an mpmath number are written as
their exact decimal; a float (or a numpy float) as its shortest repr, the
decimal Python prints for it, which reads back as the same double at 53 bits.
Out: at 53 bits doubles; at more bits mpmath numbers at that precision when
mpmath is installed, else the decimal strings chartless prints.
"""
import decimal

try:
    import numpy as _np
except ImportError:  # numpy is optional
    _np = None
_MPMATH = []


def _mpmath():
    """mpmath, imported on first use (it costs a quarter second); None when absent."""
    if not _MPMATH:
        try:
            import mpmath
        except ImportError:  # mpmath is optional
            mpmath = None
        _MPMATH.append(mpmath)
    return _MPMATH[0]


def _mpf_text(x):
    """The exact decimal of an mpmath mpf (mantissa times a power of 2)."""
    sign, man, exp, _ = x._mpf_
    if not man:
        return "0"
    man = int(man)
    if exp >= 0:
        text = str(man << exp)
    else:
        digits = str(man * 5 ** (-exp)).rjust(-exp + 1, "0")
        text = digits[:exp] + "." + digits[exp:]
    return ("-" if sign else "") + text


def to_text(v):
    """One number as chartless reads it (see the module's docstring)."""
    if isinstance(v, bool):
        raise TypeError("a number is expected, not %r" % (v,))
    if isinstance(v, str):
        return v.strip()
    if isinstance(v, int):
        return str(v)
    if isinstance(v, decimal.Decimal):
        return str(v)
    if type(v).__module__.startswith("mpmath") and _mpmath() is not None and isinstance(v, _mpmath().mpf):
        return _mpf_text(v)
    if isinstance(v, float) or (_np is not None and isinstance(v, _np.floating)):
        return repr(float(v))
    if _np is not None and isinstance(v, _np.integer):
        return str(int(v))
    raise TypeError("a number is expected, not %r" % (v,))


def flat(state):
    """A state (list, tuple or array, possibly nested) as a flat list of numbers."""
    if _np is not None and isinstance(state, _np.ndarray) and state.dtype != object:
        return [float(x) for x in state.ravel()]
    out = []
    for x in state:
        if isinstance(x, (list, tuple)) or (_np is not None and isinstance(x, _np.ndarray)):
            out.extend(flat(x))
        else:
            out.append(x)
    return out


def convert(texts, bits, numbers):
    """Decimal strings of chartless as asked: 'float', 'str', 'mpmath', or 'auto'.

    'auto' gives a numpy float array (a list without numpy) at 53 bits, and
    mpmath numbers at more bits when mpmath is present, else strings.
    """
    if numbers == "auto":
        numbers = "float" if bits <= 53 else ("mpmath" if _mpmath() is not None else "str")
    if numbers == "str":
        return list(texts)
    if numbers == "float":
        vals = [float(t) for t in texts]
        return _np.array(vals) if _np is not None else vals
    if numbers == "mpmath":
        mp = _mpmath()
        if mp is None:
            raise ImportError("numbers='mpmath' needs mpmath (Debian: python3-mpmath)")
        with mp.workprec(bits):
            return [mp.mpf(t) for t in texts]
    raise ValueError("numbers must be 'auto', 'float', 'str' or 'mpmath', not %r" % (numbers,))


def parse_float_hook(bits, numbers):
    """A json.loads parse_float that keeps a number's digits as convert() would."""
    def hook(text):
        return convert([text], bits, numbers)[0]
    return hook
