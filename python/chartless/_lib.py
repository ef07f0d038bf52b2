"""Finding and loading libchartless_python.so and the ``chartless`` command.

The shared library (python/capi.c) holds the registered systems and the
command line's parsing of options, parameters and states; it is loaded with
ctypes (no compiler needed). The command is run for what the library has no
entry point for (simulate, oracle, sweep, grade).
"""
import ctypes
import os
import shutil
import subprocess

_HERE = os.path.dirname(os.path.abspath(__file__))
# PREFIX/lib/python3.X/dist-packages/chartless -> PREFIX
_PREFIX = os.path.normpath(os.path.join(_HERE, "..", "..", "..", ".."))


class ChartlessError(Exception):
    """An error reported by chartless, with its message.

    Attributes
    ----------
    message : str
        The message, as the command line prints it after ``error:``.
    status : int
        The exit status the command line would give: 2 bad input, 1 a
        computation that failed.
    """

    def __init__(self, message, status=2):
        super().__init__(message)
        self.message = message
        self.status = status


def _library_candidates():
    env = os.environ.get("CHARTLESS_LIBRARY")
    if env:
        yield env
        return
    yield os.path.join(_PREFIX, "lib", "libchartless_python.so")
    yield "libchartless_python.so"


_lib = None


def library():
    """The loaded libchartless_python.so (ctypes.CDLL), loaded once.

    Raises
    ------
    ChartlessError
        When no candidate loads (the message lists the places tried).
    """
    global _lib
    if _lib is not None:
        return _lib
    tried = []
    for path in _library_candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
            continue
        _declare(lib)
        _lib = lib
        return lib
    raise ChartlessError("cannot load libchartless_python.so (tried: %s); run make install or set CHARTLESS_LIBRARY"
                         % ", ".join(tried))


def _declare(lib):
    c = ctypes
    lib.clpy_open.restype = c.c_void_p
    lib.clpy_open.argtypes = [c.c_int, c.POINTER(c.c_char_p), c.c_char_p, c.c_size_t]
    lib.clpy_close.argtypes = [c.c_void_p]
    lib.clpy_dim.restype = c.c_size_t
    lib.clpy_dim.argtypes = [c.c_void_p]
    lib.clpy_form.argtypes = [c.c_void_p]
    lib.clpy_form_name.restype = c.c_char_p
    lib.clpy_form_name.argtypes = [c.c_void_p, c.c_int]
    lib.clpy_system_name.restype = c.c_char_p
    lib.clpy_system_name.argtypes = [c.c_void_p]
    lib.clpy_component_name.argtypes = [c.c_void_p, c.c_size_t, c.c_char_p, c.c_size_t]
    lib.clpy_rhs.argtypes = [c.c_void_p, c.c_char_p, c.POINTER(c.c_double), c.c_char_p, c.c_size_t, c.c_char_p, c.c_size_t]
    lib.clpy_equilibria.argtypes = [c.c_void_p, c.c_int, c.POINTER(c.c_void_p), c.c_char_p, c.c_size_t]
    lib.clpy_free.argtypes = [c.c_void_p]
    lib.clpy_bodies.argtypes = [c.c_void_p, c.POINTER(c.c_double), c.c_size_t, c.POINTER(c.c_double), c.c_size_t]


def command():
    """The path of the ``chartless`` command: $CHARTLESS, PREFIX/bin/chartless, or the one on PATH."""
    env = os.environ.get("CHARTLESS")
    if env:
        return env
    mine = os.path.join(_PREFIX, "bin", "chartless")
    if os.access(mine, os.X_OK):
        return mine
    found = shutil.which("chartless")
    if not found:
        raise ChartlessError("the chartless command is not found: run make install or set CHARTLESS")
    return found


def run(args, stdin=None, ok=(0,)):
    """Run ``chartless ARGS``; its stdout as text.

    Raises
    ------
    ChartlessError
        With the command's ``error:`` message when its exit status is not in `ok`.
    """
    p = subprocess.run([command()] + list(args), input=stdin, capture_output=True, text=True)
    if p.returncode not in ok:
        msg = p.stderr.strip() or p.stdout.strip().splitlines()[-1:] or ["exit status %d" % p.returncode]
        if isinstance(msg, list):
            msg = msg[0]
        raise ChartlessError(msg[7:] if msg.startswith("error: ") else msg, p.returncode)
    return p.stdout
