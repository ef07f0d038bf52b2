#!/usr/bin/env python3
"""chartless eom side by side with SymPy, model by model.

For every model file given (default: models/*.model), the printed size of
`chartless eom` (SymPy's count_ops summed over every printed line, each
temporary -- t<k>, or a velocity named by the model -- counted once where
it is defined) as derived (--derived) and
simplified, against SymPy's simplify + cse of the same equations (the
derived ones with their temporaries substituted, each simplified, then one
cse over all of them; count_ops of the replacements and the reduced
equations), and the CPU time of each. SymPy knows nothing of the manifold
(|q| = 1, q.q' = 0, R^T R = I); chartless's simplifier does.

usage: bench/eom_sympy.py [--chartless PATH] [--timeout S] [--markdown] [--no-sympy] [MODEL ...]

--no-sympy leaves SymPy out (its column empty): the printed sizes alone, in
seconds, to see what a change to the simplifier does to every model.
"""
import argparse
import glob
import keyword
import os
import re
import resource
import signal
import subprocess
import sys
import time

import sympy
from sympy.parsing.sympy_parser import parse_expr

TOKEN = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)('*)((?:\.[xyz])?)")
FUNCS = {"sin", "cos", "tan", "exp", "log", "sqrt", "atan2"}


def symbol_name(m):
    name, primes, comp = m.group(1), m.group(2), m.group(3)
    if name in FUNCS and not primes and not comp:
        return name
    if keyword.iskeyword(name) or name in ("I", "E", "S", "N", "O", "Q"):  # lambda; SymPy's own names
        name += "_"
    return name + "_d" * len(primes) + (("_" + comp[1:]) if comp else "")


def to_sympy(text, local, evaluate):
    """A line's right side in chartless's text syntax as a SymPy expression (as printed when not evaluate: 1 + 1 stays)."""
    src = TOKEN.sub(symbol_name, text).replace("^", "**")
    return parse_expr(src, local_dict=local, evaluate=evaluate)


def equations(chartless, model, derived):
    """The printed lines (name, right side) of eom, and the CPU seconds eom took."""
    args = [chartless, "eom", "--model", model] + (["--derived"] if derived else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = []
    for line in out.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        lhs, rhs = line.split(" = ", 1)
        lines.append((lhs.strip(), rhs.strip()))
    return lines, cpu


def parse(lines, evaluate):
    """Each line's right side as SymPy, temporaries as symbols t<k>."""
    local = {f: getattr(sympy, f) for f in FUNCS}
    return [(lhs, to_sympy(rhs, local, evaluate)) for lhs, rhs in lines]


def printed_size(exprs):
    return sum(sympy.count_ops(e) for _, e in exprs)


def substituted(exprs):
    """The equations (not the temporaries) with every temporary written out."""
    temps, eqs = {}, []
    for lhs, e in exprs:
        e = e.xreplace(temps)
        if "'" not in lhs:  # a temporary: t<k>, or a velocity named by the model (Omega1 = Pi1/J1); an equation is a rate, x' = ...
            temps[sympy.Symbol(lhs)] = e
        else:
            eqs.append(e)
    return eqs


class Timeout(Exception):
    pass


def on_alarm(signum, frame):
    raise Timeout()


def sympy_size(eqs, timeout):
    """count_ops of cse(simplify(each)) and the CPU seconds, or (None, seconds) past the timeout."""
    signal.signal(signal.SIGALRM, on_alarm)
    signal.alarm(timeout)
    t0 = time.process_time()
    try:
        simple = [sympy.simplify(e) for e in eqs]
        repl, reduced = sympy.cse(simple)
        size = sum(sympy.count_ops(e) for _, e in repl) + sum(sympy.count_ops(e) for e in reduced)
    except Timeout:
        size = None
    finally:
        signal.alarm(0)
    return size, time.process_time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chartless", default=os.environ.get("C", "build/chartless"))
    ap.add_argument("--timeout", type=int, default=120, help="wall seconds SymPy may take per model (default 120)")
    ap.add_argument("--markdown", action="store_true", help="a Markdown table (docs/eom.md)")
    ap.add_argument("--no-sympy", action="store_true", help="leave SymPy out: chartless's sizes only")
    ap.add_argument("models", nargs="*")
    a = ap.parse_args()
    models = a.models or sorted(glob.glob("models/*.model"))
    if a.markdown:
        print("| model | derived | simplified | SymPy simplify + cse | eom s | SymPy s |")
        print("|---|---:|---:|---:|---:|---:|")
    else:
        print(f"{'model':26} {'derived':>8} {'simplified':>10} {'sympy':>8} {'eom s':>7} {'sympy s':>8}")
    for model in models:
        name = os.path.basename(model)[:-6]
        derived, _ = equations(a.chartless, model, True)
        simplified, cpu = equations(a.chartless, model, False)
        d, s = parse(derived, False), parse(simplified, False)
        if a.no_sympy:
            size, tsym, sym = None, 0.0, "-"
        else:
            size, tsym = sympy_size(substituted(parse(derived, True)), a.timeout)
            sym = "timeout" if size is None else str(size)
        if a.markdown:
            print(f"| {name} | {printed_size(d)} | {printed_size(s)} | {sym} | {cpu:.2f} | {tsym:.1f} |")
        else:
            print(f"{name:26} {printed_size(d):8} {printed_size(s):10} {sym:>8} {cpu:7.2f} {tsym:8.1f}")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
