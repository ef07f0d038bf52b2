"""Running a student's Python function where it cannot harm the caller.

The function runs in a forked child with the limits of the C grader's
sandbox (cli/grade/sandbox.c): CPU time (RLIMIT_CPU) and a wall deadline, 512 MiB
of address space more than the caller had (RLIMIT_AS), no new processes
(RLIMIT_NPROC 0, and on x86-64 the same seccomp filter: fork, clone, exec,
ptrace and signals to other processes end it), no core file, at most 64
KiB of output. Its results come back over a pipe, one line per state, in
the values format the grader reads (cli/grade/grade_student.h); a crash, a hang,
an exit or an exception is an outcome, named with the state it was at.
"""
import ctypes
import math
import os
import platform
import resource
import select
import signal
import struct
import sys
import tempfile
import time
import traceback

MEMORY = 512 << 20   # CL_SANDBOX_MEMORY
OUTPUT = 64 << 10


def _seccomp_filter(self_pid):
    """The BPF program of cli/grade/sandbox.c's forbid_processes(), x86-64 only; None elsewhere."""
    if sys.platform != "linux" or platform.machine() != "x86_64":
        return None
    LD, JEQ, JGE, RET = 0x20, 0x15, 0x35, 0x06
    KILL, ALLOW = 0x80000000, 0x7FFF0000
    ins = [(LD, 0, 0, 4), (JEQ, 1, 0, 0xC000003E), (RET, 0, 0, KILL), (LD, 0, 0, 0),
           (JGE, 0, 1, 0x40000000), (RET, 0, 0, KILL)]
    for nr in (57, 58, 56, 435, 59, 322, 101, 200, 311, 424):  # fork vfork clone clone3 execve execveat ptrace tkill pvm_writev pidfd_send_signal
        ins += [(JEQ, 0, 1, nr), (RET, 0, 0, KILL)]
    for nr in (62, 234):  # kill, tgkill: only to itself (or its group, 0)
        ins += [(LD, 0, 0, 0), (JEQ, 0, 4, nr), (LD, 0, 0, 16), (JEQ, 2, 0, self_pid), (JEQ, 1, 0, 0), (RET, 0, 0, KILL)]
    ins.append((RET, 0, 0, ALLOW))
    return b"".join(struct.pack("HBBI", *i) for i in ins), len(ins)


def _forbid_processes():
    prog = _seccomp_filter(os.getpid())
    if prog is None:
        return
    code, n = prog
    buf = ctypes.create_string_buffer(code, len(code))

    class Fprog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    fprog = Fprog(n, ctypes.addressof(buf))
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(38, 1, 0, 0, 0) == 0:  # PR_SET_NO_NEW_PRIVS
        libc.prctl(22, 2, ctypes.byref(fprog), 0, 0)  # PR_SET_SECCOMP, SECCOMP_MODE_FILTER


def _mapped_now():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[0]) * resource.getpagesize()


def _limit(which, soft, hard=None):
    try:
        resource.setrlimit(which, (soft, soft if hard is None else hard))
    except (ValueError, OSError):
        pass


def _child(fn, states, params, wfd, outfd, timeout, as_array):
    """In the child: limits, then fn at every state, a line per state on wfd. Never returns."""
    status = 0
    try:
        os.setpgid(0, 0)
        os.dup2(outfd, 1)
        os.dup2(outfd, 2)
        sys.stdout = open(1, "w", buffering=1, closefd=False)
        sys.stderr = open(2, "w", buffering=1, closefd=False)
        cpu = int(math.ceil(timeout)) + 1
        _limit(resource.RLIMIT_CPU, cpu, cpu + 1)
        _limit(resource.RLIMIT_CORE, 0)
        _limit(resource.RLIMIT_FSIZE, OUTPUT)
        _limit(resource.RLIMIT_NPROC, 0)
        _limit(resource.RLIMIT_AS, _mapped_now() + MEMORY)
        if not os.environ.get("CHARTLESS_GRADE_TEST_NO_SECCOMP"):
            _forbid_processes()
        out = os.fdopen(wfd, "w", buffering=1)
        for k, x in enumerate(states):
            try:
                dx = fn(as_array(x), params)
                vals = [float(v) for v in dx]
                if len(vals) != len(x):
                    raise ValueError("the function returned %d numbers for a state of %d" % (len(vals), len(x)))
            except MemoryError:
                out.write("end memory %d 0 0\n" % k)
                break
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else 1
                out.write("end exit %d 0 %d\n" % (k, code))
                break
            except BaseException as e:
                msg = traceback.format_exception_only(type(e), e)[-1].strip().replace("\n", " ")
                out.write("message %s\nend exception %d 0 0\n" % (msg[:400], k))
                break
            out.write("state %d 0 %s\n" % (k + 1, " ".join(v.hex() for v in vals)))
        out.flush()
    except BaseException:
        status = 3
    finally:
        os._exit(status)


def _read_until(rfd, pid, deadline):
    """Lines from the child until it closes the pipe or the deadline; (text, timed_out)."""
    chunks = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return b"".join(chunks).decode(errors="replace"), True
        ready, _, _ = select.select([rfd], [], [], min(left, 0.5))
        if ready:
            data = os.read(rfd, 65536)
            if not data:
                return b"".join(chunks).decode(errors="replace"), False
            chunks.append(data)


def _ending(status, lines, timed_out):
    """The `end` line of the values format for how the child ended."""
    nrows = sum(1 for l in lines if l.startswith("state "))
    if any(l.startswith("end ") for l in lines):
        return None
    if timed_out:
        return "end timeout %d 0 0" % nrows
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        if sig == signal.SIGXCPU:
            return "end timeout %d %d 0" % (nrows, sig)
        if sig == signal.SIGSYS:
            return "end forbidden %d %d 0" % (nrows, sig)
        return "end crash %d %d 0" % (nrows, sig)
    code = os.WEXITSTATUS(status)
    return None if code == 0 else "end exit %d 0 %d" % (nrows, code)


def evaluate(fn, states, params, timeout, as_array):
    """fn at the states in a sandboxed child: the lines of one instance of a values file."""
    rfd, wfd = os.pipe()
    outf = tempfile.TemporaryFile()
    sys.stdout.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        _child(fn, states, params, wfd, outf.fileno(), timeout, as_array)
    os.close(wfd)
    try:
        text, timed_out = _read_until(rfd, pid, time.monotonic() + timeout)
    finally:
        os.close(rfd)
    if timed_out:
        for target in (-pid, pid):
            try:
                os.kill(target, signal.SIGKILL)
            except OSError:
                pass
    _, status = os.waitpid(pid, 0)
    lines = [l for l in text.split("\n") if l]
    if not timed_out and text and not text.endswith("\n"):
        lines = lines[:-1]  # a line cut short by the end of the process
    end = _ending(status, lines, timed_out)
    outf.seek(0)
    printed = outf.read(OUTPUT)
    outf.close()
    extra = ["output " + printed.hex()] if printed else []
    return lines + ([end] if end else []) + extra
