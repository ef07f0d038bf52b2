"""chartless from Python: coordinate-free Lagrangian and Hamiltonian
mechanics in double and MPFR precision.

Which route each call takes:

- the library (libchartless_python.so, loaded with ctypes, in this
  process): ``System``/``Model`` construction, ``rhs``, ``forms``,
  ``components``, ``dim``, ``equilibria``, ``stability``;
- the ``chartless`` command (a child process, JSON): ``simulate``,
  ``sweep``, ``oracle``, and ``grade`` (the grader itself, with the student's Python
  function evaluated in a sandboxed child of this process).

Figures (matplotlib): ``chartless.plot``, imported on its own
(``import chartless.plot``).

Errors are ``ChartlessError`` with the message the command line prints.

Examples
--------
>>> import chartless
>>> chain = chartless.System("chain", n=2, m=[1, 2], l=[1, 0.5])
>>> dx = chain.rhs([0, 0, -1, 0, 0, -1, 1, 0, 0, 0, 1, 0], form="qdot")  # doctest: +SKIP
"""
from ._lib import ChartlessError
from ._system import Model, System, oracle
from ._grade import grade

__all__ = ["ChartlessError", "Model", "System", "grade", "oracle"]
__version__ = "0.1.0"
