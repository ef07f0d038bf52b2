"""chartless.System and chartless.Model."""
import ctypes
import json
import os
import tempfile

from . import _lib
from ._lib import ChartlessError
from ._numbers import convert, flat, to_text

try:
    import numpy as _np
except ImportError:  # numpy is optional
    _np = None

_ERR = 2048


def _option_args(options):
    """Keyword options as command-line words: --key value, a list as a,b,c, True as a flag."""
    args = []
    for key, value in options.items():
        if value is None or value is False:
            continue
        args.append("--" + key)
        if value is True:
            continue
        if isinstance(value, (list, tuple)) or (_np is not None and isinstance(value, _np.ndarray)):
            args.append(",".join(to_text(v) for v in flat(value)))
        else:
            args.append(to_text(value) if not isinstance(value, str) else value)
    return args


def _frame(table, form, bits):
    """A structured array as a pandas DataFrame (attrs: form, bits); the array itself without pandas."""
    try:
        import pandas
    except ImportError:  # pandas is optional
        return table
    df = pandas.DataFrame(table)
    df.attrs.update(form=form, bits=bits)
    return df


_WHOLE = ("index", "dimension", "definite", "positive", "negative", "zero", "conserved")


def _typed(entry, bits, numbers):
    """An equilibrium's dict with whole numbers as int and the others converted as rhs() does."""
    out = {}
    for key, value in entry.items():
        if key in _WHOLE:
            out[key] = int(value)
        elif key == "eigenvalues":
            out[key] = [list(convert(pair, bits, numbers)) for pair in value]
        elif key in ("state", "hessian_eigenvalues"):
            out[key] = convert(value, bits, numbers)
        elif key == "log2_residual":
            out[key] = None if value is None else float(value)
        else:
            out[key] = value
    return out


class System:
    """A registered system of chartless, at given parameters.

    Parameters
    ----------
    name : str
        The system (``chartless systems`` lists them), e.g. ``"chain"``.
    **params
        Its parameters as the command line takes them: ``n=2``,
        ``m=[1, 2]``, ``l=[1, 0.5]``, ``g=9.81``; a list is a comma list,
        ``True`` a flag.

    Examples
    --------
    >>> chain = System("chain", n=2, m=[1, 2], l=[1, 0.5])
    >>> chain.rhs([0, 0, -1, 0, 0, -1, 1, 0, 0, 0, 1, 0], form="qdot")  # doctest: +SKIP
    """

    def __init__(self, name, **params):
        self._source = ["--system", name]
        self._params = dict(params)
        self._handles = {}

    # -- the library's instances, one per form and precision
    def _words(self):
        return self._source + _option_args(self._params)

    def _handle(self, form, bits):
        key = (form, int(bits))
        if key not in self._handles:
            lib = _lib.library()
            words = ["rhs"] + self._words() + ["--bits", str(int(bits))] + (["--form", form] if form else [])
            argv = (ctypes.c_char_p * len(words))(*[w.encode() for w in words])
            err = ctypes.create_string_buffer(_ERR)
            h = lib.clpy_open(len(words), argv, err, _ERR)
            if not h:
                raise ChartlessError(err.value.decode(errors="replace"))
            self._handles[key] = h
        return self._handles[key]

    def close(self):
        """Release the library's instances (also done when the object is collected)."""
        lib = _lib._lib
        for h in self._handles.values():
            if lib is not None:
                lib.clpy_close(h)
        self._handles = {}

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

    @property
    def forms(self):
        """The forms of the state this system offers (library)."""
        lib, h = _lib.library(), self._handle(None, 53)
        out, i = [], 0
        while True:
            name = lib.clpy_form_name(h, i)
            if name is None:
                return out
            out.append(name.decode())
            i += 1

    def components(self, form=None):
        """The names of the state's components in `form` (library), e.g. ``['q1.x', ...]``."""
        lib, h = _lib.library(), self._handle(form, 53)
        buf = ctypes.create_string_buffer(64)
        names = []
        for i in range(lib.clpy_dim(h)):
            lib.clpy_component_name(h, i, buf, 64)
            names.append(buf.value.decode())
        return names

    def dim(self, form=None):
        """The number of components of the state in `form` (library)."""
        return int(_lib.library().clpy_dim(self._handle(form, 53)))

    def rhs(self, state, form=None, bits=53, numbers="auto"):
        """The vector field dx/dt at a state, by the library (no process started).

        Parameters
        ----------
        state : sequence of numbers
            The state in `form` (``components()`` names them). Ints, str,
            decimal.Decimal and mpmath numbers are read exactly at `bits`,
            floats as their shortest decimal; never through a double. The
            state is checked and its unit vectors normalised as
            ``chartless rhs`` does.
        form : str, optional
            The form of the state (default: the system's first).
        bits : int
            Working precision, 2 to 65536 (default 53).
        numbers : {'auto', 'float', 'str', 'mpmath'}
            What to return: 'auto' is a numpy float array at 53 bits and
            mpmath numbers at more bits (decimal strings without mpmath).

        Returns
        -------
        numpy.ndarray or list
            dx/dt, component by component.

        Raises
        ------
        ChartlessError
            With the library's message: a state of the wrong length, a q
            that is not a unit vector, an unknown form or parameter.
        """
        lib = _lib.library()
        h = self._handle(form, bits)
        dim = lib.clpy_dim(h)
        text = " ".join(to_text(v) for v in flat(state)).encode()
        dxd = (ctypes.c_double * max(dim, 1))()
        cap = (int(bits) // 3 + 40) * max(dim, 1)
        out = ctypes.create_string_buffer(cap)
        err = ctypes.create_string_buffer(_ERR)
        if lib.clpy_rhs(h, text, dxd, out, cap, err, _ERR):
            raise ChartlessError(err.value.decode(errors="replace"))
        if int(bits) <= 53 and numbers in ("auto", "float"):
            return _np.array(dxd[:dim]) if _np is not None else list(dxd[:dim])
        return convert(out.value.decode().split(), int(bits), numbers)

    def _equilibria(self, stability, form, bits, numbers):
        lib = _lib.library()
        h = self._handle(form, bits)
        ptr = ctypes.c_void_p()
        err = ctypes.create_string_buffer(_ERR)
        st = lib.clpy_equilibria(h, stability, ctypes.byref(ptr), err, _ERR)
        if st:
            raise ChartlessError(err.value.decode(errors="replace"), st)
        text = ctypes.string_at(ptr.value).decode()
        lib.clpy_free(ptr)
        return [_typed(e, int(bits), numbers) for e in json.loads(text, parse_float=str, parse_int=str)]

    def equilibria(self, form=None, bits=53, numbers="auto"):
        """The linearization at every equilibrium the system declares (library).

        Returns
        -------
        list of dict
            One per equilibrium: ``index``, ``name``, ``state``,
            ``dimension`` (of the tangent space) and ``eigenvalues`` as
            [real, imaginary] pairs, ascending real part (as ``chartless
            equilibria`` prints them).
        """
        return self._equilibria(0, form, bits, numbers)

    def stability(self, form=None, bits=53, numbers="auto"):
        """The Energy-Casimir test at every equilibrium the system declares (library).

        Returns
        -------
        list of dict
            One per equilibrium: ``index``, ``name``, ``verdict`` ('stable'
            when the restricted Hessian is definite, else 'inconclusive'),
            ``definite`` (+1, -1, 0), its inertia ``positive``,
            ``negative``, ``zero``, ``dimension``, ``conserved`` (the
            conserved quantities used), ``log2_residual`` and
            ``hessian_eigenvalues``.
        """
        return self._equilibria(1, form, bits, numbers)

    def simulate(self, state, t=10, form=None, bits=53, numbers="auto", frame=None, **options):
        """Integrate from `state` over [0, t] (runs ``chartless simulate --format json``).

        Parameters
        ----------
        state : sequence of numbers
            The initial state in `form`.
        t : float
            Final time.
        form : str, optional
            The form of the state (default: the system's first).
        bits : int
            Working precision (default 53).
        numbers : {'auto', 'float', 'str', 'mpmath'}
            As in rhs(): 'auto' is doubles at 53 bits, mpmath numbers above.
        frame : bool, optional
            At 53 bits, a pandas DataFrame (True) or a numpy structured
            array (False); default: a DataFrame when pandas is installed
            (Debian: python3-pandas).
        **options
            Options of ``chartless simulate``: ``integrator='gauss'``,
            ``h=0.01``, ``tol=1e-12``, ``every=10``, ``max_steps=...``.

        Returns
        -------
        pandas.DataFrame, numpy structured array or dict
            One row per accepted step, named columns (``t``, the state's
            components, the invariants, the energy error): doubles at 53
            bits, as a DataFrame (its ``attrs`` hold ``form`` and ``bits``)
            or a structured array; at more bits (or without numpy) a dict
            of column name to a list (mpmath numbers or decimal strings).
        """
        words = ["simulate"] + self._words() + ["--t", to_text(t), "--bits", str(int(bits)), "--format", "json"]
        words += (["--form", form] if form else []) + _option_args({k.replace("_", "-"): v for k, v in options.items()})
        stdin = " ".join(to_text(v) for v in flat(state)) + "\n"
        doc = json.loads(_lib.run(words, stdin=stdin), parse_float=str, parse_int=str)
        cols, rows = doc["columns"], doc["rows"]
        if int(bits) <= 53 and numbers in ("auto", "float") and _np is not None:
            dtype = [(c, "f8") for c in cols]
            table = _np.array([tuple(float("nan") if v is None else float(v) for v in r) for r in rows], dtype=dtype)
            return _frame(table, form or self.forms[0], int(bits)) if frame is not False else table
        return {c: convert(["nan" if r[i] is None else r[i] for r in rows], int(bits), numbers) for i, c in enumerate(cols)}

    def bodies(self, states, form=None):
        """Where the bodies are in space at each of `states` (library): the
        masses of a chain, the centre of mass of a top on its axis, as the
        3-D pictures of ``chartless simulate --plot`` place them.

        Parameters
        ----------
        states : array_like, shape (rows, dim) or (dim,)
            States in `form`, or a table simulate() returned (its state
            columns are taken).
        form : str, optional
            The form of the states (default: a table's own, else the system's first).

        Returns
        -------
        numpy.ndarray, shape (rows, k, 3)
            The k bodies of each state, joined by links from the origin.

        Raises
        ------
        ChartlessError
            When the system does not say where its bodies are in that form.
        """
        form = form or getattr(states, "attrs", {}).get("form")
        names = self.components(form)
        if hasattr(states, "columns") or (hasattr(states, "dtype") and states.dtype.names):
            states = _np.column_stack([_np.asarray(states[c], dtype=float) for c in names])
        x = _np.ascontiguousarray(_np.atleast_2d(_np.asarray(states, dtype=float)))
        if x.shape[1] != len(names):
            raise ChartlessError("a state has %d numbers, the %s form %d" % (x.shape[1], form or self.forms[0], len(names)))
        lib, h = _lib.library(), self._handle(form, 53)
        k = lib.clpy_bodies(h, None, 0, None, 0)
        if k <= 0:
            raise ChartlessError("the system does not say where its bodies are in this form (%s)" % (form or self.forms[0]))
        out = _np.zeros((x.shape[0], k, 3))
        dp = ctypes.POINTER(ctypes.c_double)
        if lib.clpy_bodies(h, x.ctypes.data_as(dp), x.shape[0], out.ctypes.data_as(dp), out.size) != k:
            raise ChartlessError("the bodies could not be placed (out of memory or a state outside the domain)", 1)
        return out

    def sweep(self, x, y=None, bits=53, numbers="auto", **options):
        """A stability map over a grid of parameters (runs ``chartless sweep --format json``).

        Parameters
        ----------
        x : str
            The first axis, ``"NAME=a:b:N"`` (``"g=1:10:3"``).
        y : str, optional
            The second axis, likewise.
        **options
            Options of ``chartless sweep``: ``form``, ``equilibrium``, ``certify=True``.

        Returns
        -------
        list of dict
            One per cell, with the columns of the CSV (``cell``, the axes,
            per equilibrium ``NAME.verdict``, ``NAME.max_re``,
            ``NAME.ec_margin``, or a system's own map's ``verdict`` and
            ``margin``): words as str, numbers as rhs() returns them.
        """
        words = ["sweep"] + self._words() + ["--x", x] + (["--y", y] if y else []) + ["--bits", str(int(bits)), "--format", "json"]
        words += _option_args({k.replace("_", "-"): v for k, v in options.items()})
        doc = json.loads(_lib.run(words), parse_float=str, parse_int=str)
        cols = doc["columns"]

        def value(c, v):
            if v is None or c == "cell":
                return None if v is None else int(v)
            try:
                float(v)
            except ValueError:
                return v
            return convert([v], int(bits), numbers)[0]
        return [{c: value(c, v) for c, v in zip(cols, row)} for row in doc["rows"]]


class Model(System):
    """A model file (docs/models.md): a Lagrangian on a product of spheres,
    rotation groups and flat factors, derived and integrated by chartless.

    Parameters
    ----------
    path_or_text : str
        The path of a ``.model`` file, or the text of one.
    **params
        Its parameters by name (instead of the file's defaults).
    """

    def __init__(self, path_or_text, **params):
        self._tmp = None
        if "\n" not in path_or_text and os.path.exists(path_or_text):
            path = path_or_text
        else:
            self._tmp = tempfile.TemporaryDirectory(prefix="chartless-model-")
            path = os.path.join(self._tmp.name, "model.model")
            with open(path, "w") as f:
                f.write(path_or_text)
        super().__init__("", **params)
        self.path = path
        self._source = ["--model", path]

    def oracle(self, bits=None, quick=True):
        """The oracle's rows of this model (runs ``chartless oracle --model --format json``).

        Returns
        -------
        list of dict
            The checks, as in docs/oracle.schema.json.
        """
        words = ["oracle", "--model", self.path, "--format", "json"] + (["--quick"] if quick else [])
        words += ["--param=%s=%s" % (k, to_text(v) if not isinstance(v, (list, tuple)) else ",".join(map(to_text, v)))
                  for k, v in self._params.items()]
        if bits:
            words += ["--bits", ",".join(str(b) for b in bits)]
        return json.loads(_lib.run(words, ok=(0, 1)))["checks"]


def oracle(chapter=None, check=None, bits=None, quick=True):
    """The oracle's checks (runs ``chartless oracle --format json``).

    Parameters
    ----------
    chapter : str, optional
        Only the checks of chapters starting with this (``"S2 V"``).
    check : str, optional
        Only the checks whose name matches this glob.
    bits : list of int, optional
        The precisions of the ladder.

    Returns
    -------
    list of dict
        One per check, with the fields of docs/oracle.schema.json.
    """
    words = ["oracle", "--format", "json"] + (["--quick"] if quick else [])
    if chapter:
        words += ["--chapter", chapter]
    if check:
        words += ["--check", check]
    if bits:
        words += ["--bits", ",".join(str(b) for b in bits)]
    return json.loads(_lib.run(words, ok=(0, 1)))["checks"]
