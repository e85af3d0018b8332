#!/usr/bin/env python3
"""islpy oracle for lf-presburger's differential test (tests/isl_oracle.rs).

Reads cases from standard input, one per line, tab-separated:

    id  set  proj_type  proj_start  proj_n  projected  var  other

- set: the system in ISL syntax (written by the test's own writer, not by
  lf's printer);
- proj_type/proj_start/proj_n: the variables lf projected out ("set" or
  "param", ISL's dim_type; "-" for none), and projected: lf's result,
  printed by lf (its Display), which ISL parses;
- var: a variable (a position among the set dims followed by the params)
  whose integer minimum and maximum are asked;
- other: a second system of the same space ("-" for none): is set a subset
  of it?

Writes one line per question to standard output, tab-separated:

    id  question  answer

with the questions `empty` (0/1), `proj` (0/1: is lf's projection equal to
ISL's), `lexmin`, `lexmax` (a comma-separated point, U for unbounded, E for
empty), `min`, `max` (an integer, U or E) and `subset` (0/1). For the
lexicographic order and the bounds the parameters are moved behind the set
dimensions, as lf orders its columns.

ISL is exact but not always fast: on a few systems with large coefficients
and existential variables its set difference (behind is_equal and is_subset)
takes minutes. The questions run in a forked worker; when one takes longer
than the per-question limit (argv[1], seconds, default 2), the worker is
killed, the question is answered `T` (ISL timed out: not compared), and a new
worker carries on with the case's other questions. One process start for all cases.
"""

import os
import select
import signal
import sys

import islpy as isl


def as_set(s):
    """The set with its parameters moved behind its dimensions."""
    n_par = s.dim(isl.dim_type.param)
    return s.move_dims(isl.dim_type.set, s.dim(isl.dim_type.set), isl.dim_type.param, 0, n_par)


def point_of(s):
    """The coordinates of the single point of s."""
    pt = s.sample_point()
    n = s.dim(isl.dim_type.set)
    return ",".join(str(pt.get_coordinate_val(isl.dim_type.set, i).to_python()) for i in range(n))


def lexopt(s, maximize):
    if s.is_empty():
        return "E"
    try:
        r = s.lexmax() if maximize else s.lexmin()
    except isl.Error as e:
        if "unbounded" in str(e):
            return "U"
        raise
    return point_of(r)


def bound(s, var, maximize):
    n = s.dim(isl.dim_type.set)
    one = s.project_out(isl.dim_type.set, var + 1, n - var - 1).project_out(isl.dim_type.set, 0, var)
    return lexopt(one, maximize)


def questions(fields):
    """(name, thunk) for each question of one case."""
    cid, text, ptype, pstart, pn, projected, var, other = fields
    s = isl.Set(text)
    flat = as_set(s)
    out = [("empty", lambda: "1" if s.is_empty() else "0")]
    if ptype != "-":

        def proj():
            dt = isl.dim_type.set if ptype == "set" else isl.dim_type.param
            expected = as_set(s.project_out(dt, int(pstart), int(pn)))
            got = as_set(isl.Set(projected))
            return "1" if expected.is_equal(got) else "0"

        out.append(("proj", proj))
    out.append(("lexmin", lambda: lexopt(flat, False)))
    out.append(("lexmax", lambda: lexopt(flat, True)))
    out.append(("min", lambda: bound(flat, int(var), False)))
    out.append(("max", lambda: bound(flat, int(var), True)))
    if other != "-":
        out.append(("subset", lambda: "1" if s.is_subset(isl.Set(other)) else "0"))
    return out


def worker(cases, start, skip, wfd):
    """Answers cases[start:], one line per question, written to wfd; skips
    the questions named in `skip` in the first case."""
    # Never let ISL's messages about failed calls reach the test's output.
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 2)
    w = os.fdopen(wfd, "w", buffering=1)
    for fields in cases[start:]:
        cid = fields[0]
        try:
            qs = questions(fields)
        except Exception as e:  # noqa: BLE001 - reported, compared as a failure
            w.write(f"{cid}\tparse\tX:{str(e).splitlines()[0] if str(e) else type(e).__name__}\n")
            continue
        for name, thunk in qs:
            if name in skip:
                continue
            w.write(f"{cid}\t{name}\t?\n")  # started
            try:
                ans = thunk()
            except Exception as e:  # noqa: BLE001
                msg = str(e).splitlines()[0] if str(e) else type(e).__name__
                ans = f"X:{msg}"
            w.write(f"{cid}\t{name}\t{ans}\n")
        w.write(f"{cid}\tdone\t-\n")
        skip = ()
    w.close()
    os._exit(0)


def main():
    limit = float(sys.argv[1]) if len(sys.argv) > 1 else 2.0
    cases = []
    for line in sys.stdin:
        line = line.rstrip("\n")
        if line:
            cases.append(line.split("\t"))
    out = sys.stdout
    start = 0
    skip = set()  # the questions of cases[start] already answered
    while start < len(cases):
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            worker(cases, start, skip, w)
        os.close(w)
        buf = b""
        current = None  # (case index, question) started and not answered
        finished = False
        while True:
            ready, _, _ = select.select([r], [], [], limit)
            if not ready:
                break  # the current question timed out
            chunk = os.read(r, 65536)
            if not chunk:
                finished = True
                break
            buf += chunk
            *lines, buf = buf.split(b"\n")
            for raw in lines:
                cid, name, ans = raw.decode().split("\t")
                if name == "done":
                    start += 1
                    skip = set()
                    current = None
                elif ans == "?":
                    current = (cid, name)
                else:
                    out.write(f"{cid}\t{name}\t{ans}\n")
                    skip.add(name)
                    current = None
        os.close(r)
        if not finished:
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        if not finished:
            # A question of the case at `start` timed out: answer it T and
            # ask the case's other questions in a new worker (a case whose
            # text ISL did not even parse in time is given up).
            cid = cases[start][0]
            if current is None:
                out.write(f"{cid}\tparse\tT\n")
                start += 1
                skip = set()
            else:
                out.write(f"{cid}\t{current[1]}\tT\n")
                skip.add(current[1])
        out.flush()


if __name__ == "__main__":
    main()
