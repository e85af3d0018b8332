#!/usr/bin/env python3
"""islpy oracle for lf-presburger's differential test (tests/isl_oracle.rs).

Reads cases from the file named by argv[1], one per line, tab-separated:

    id  set  proj_type  proj_start  proj_n  projected  var  other

- set: the system in ISL syntax (written by the test's own writer);
- proj_type/proj_start/proj_n: the variables lf projected out ("set" or
  "param", ISL's dim_type), and projected: lf's result (its Display);
- var: a variable (a position among the set dims followed by the params)
  whose integer minimum and maximum are asked;
- other: a second system of the same space ("-" for none): is set a subset
  of it?

Writes one line per case to argv[2], tab-separated:

    id  empty  proj_equal  lexmin  lexmax  min  max  subset

with empty/proj_equal/subset as 0 or 1 ("-" when not asked), lexmin/lexmax
as a comma-separated point, "U" (unbounded) or "E" (empty), min/max as an
integer, "U" or "E". For the lexicographic order and the bounds, the
parameters are moved behind the set dimensions, as lf orders its columns.
"""

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
    if s.is_empty():
        return "E"
    n = s.dim(isl.dim_type.set)
    one = s.project_out(isl.dim_type.set, var + 1, n - var - 1).project_out(isl.dim_type.set, 0, var)
    r = lexopt(one, maximize)
    return r


def main():
    src, dst = sys.argv[1], sys.argv[2]
    out = []
    with open(src) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line:
                continue
            cid, text, ptype, pstart, pn, projected, var, other = line.split("\t")
            s = isl.Set(text)
            empty = "1" if s.is_empty() else "0"
            proj_equal = "-"
            if ptype != "-":
                dt = isl.dim_type.set if ptype == "set" else isl.dim_type.param
                expected = as_set(s.project_out(dt, int(pstart), int(pn)))
                got = as_set(isl.Set(projected))
                proj_equal = "1" if expected.is_equal(got) else "0"
            flat = as_set(s)
            lexmin = lexopt(flat, False)
            lexmax = lexopt(flat, True)
            lo = bound(flat, int(var), False)
            hi = bound(flat, int(var), True)
            subset = "-"
            if other != "-":
                o = isl.Set(other)
                subset = "1" if s.is_subset(o) else "0"
            out.append("\t".join([cid, empty, proj_equal, lexmin, lexmax, lo, hi, subset]))
    with open(dst, "w") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
