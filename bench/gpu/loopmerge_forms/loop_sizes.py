"""Static loop sizes of a cubin's kernels, from `cuobjdump -sass` on stdin.

For every backward branch: the kernel, the loop's address range, how many
instructions it holds, how many are floating-point (FFMA, FADD, FMUL) and a
histogram of the others. Used by bench/gpu/loopmerge_forms.sh.
"""
import collections
import re
import sys

text = sys.stdin.read()
for fn in re.split(r"\n\s*Function : ", text)[1:]:
    name = fn.split("\n")[0].strip()
    ins = []
    for line in fn.split("\n"):
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s*(.*?);", line)
        if m:
            ins.append((int(m.group(1), 16), m.group(2).strip()))
    for addr, text_ in ins:
        m = re.search(r"BRA (?:!?U?P\w+, )?0x([0-9a-f]+)", text_)
        if not m or int(m.group(1), 16) >= addr:
            continue
        target = int(m.group(1), 16)
        body = [t for a, t in ins if target <= a <= addr]
        ops = collections.Counter(re.sub(r"^@!?U?P\w+ ", "", t).split()[0].split(".")[0] for t in body)
        floats = ops["FFMA"] + ops["FADD"] + ops["FMUL"]
        others = " ".join(f"{k}{v}" for k, v in sorted(ops.items()) if k not in ("FFMA", "FADD", "FMUL"))
        print(f"{name[:40]:40s} loop {target:#x}-{addr:#x}: {len(body)} instrs, {floats} float; {others}")
