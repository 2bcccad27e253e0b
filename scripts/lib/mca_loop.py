#!/usr/bin/env python3
"""Extracts the hot loop of the W1 box pass (collide_boxed in src/batch/kernels.c, usually
inlined into `collide`) from a compiler's assembly output, for llvm-mca.

    mca_loop.py KERNEL.s LANES > loop.s      (prints "pairs=N instructions=N label=L" on stderr)
    mca_loop.py KERNEL.s LANES contacts      the dense contact loop instead (see below)

The loop is found by its shape, not by its address, so it survives compiler and flag changes:
every backward branch inside the function closes a candidate region (its target label .. the
branch, i.e. the text of one trip round the loop on the fall-through path). The box pass is
the smallest region with no call, no division, at least four vector compares and at least four
vector distance operations (x - cx, y - cy for each of its two vectors: sub or abs-difference);
the exact pass divides, the census has no subtraction, the tail loop has only two compares, and
the contact refinement calls out. Pairs per trip = (distance ops / 2) * LANES: the pass is
unrolled to two vectors a trip.

With `contacts`, the loop is the dense contact loop of c2d_mca_contact_loop (kernels.c built
with -DC2D_MCA_CONTACT_LOOP: one vector of listed pairs a trip, every lane hitting): the
smallest region of that function with the formula's five vector divisions and two square
roots (or, failing that, the smallest with at least four and one).
"""
import re
import sys

FUNCTIONS = ("collide_boxed", "collide")  # in order of preference

X86_BRANCH = re.compile(r"^j[a-z]+$")
A64_BRANCH = re.compile(r"^(b|b\.[a-z]+|cbn?z|tbn?z)$")
CALL = re.compile(r"^(call[lq]?|bl|blr)$")
DIV = re.compile(r"^v?div[sp][sd]$|^fdiv$")
SQRT = re.compile(r"^v?sqrtp[sd]$|^fsqrt$")
X86_CMP = re.compile(r"^v?cmp[a-z]*p[sd]$")
A64_CMP = re.compile(r"^fcm(eq|ge|gt|le|lt)$")
X86_DIST = re.compile(r"^v?subp[sd]$")
A64_DIST = re.compile(r"^(fsub|fabd)$")
LABEL = re.compile(r"^([.\w$]+):")


def strip_comment(line, x86):
    # '#' starts a comment in x86 (AT&T) assembly but an immediate in AArch64 assembly.
    for marker in ("//", "#") if x86 else ("//",):
        at = line.find(marker)
        if at >= 0:
            line = line[:at]
    return line.rstrip()


def parse(path):
    """Functions as {name: [(kind, text, mnemonic, operands)]}, kind 'label' or 'insn'."""
    functions, current = {}, None
    typed = set()
    with open(path) as f:
        lines = f.read().splitlines()
    for raw in lines:
        m = re.match(r"\s*\.type\s+([\w.$]+)\s*,\s*[@%]function", raw)
        if m:
            typed.add(m.group(1))
    x86 = any(re.search(r"%(r[a-z0-9]+|e[a-z]{2}|[xyz]mm[0-9]+)\b", raw) for raw in lines)
    for raw in lines:
        line = strip_comment(raw, x86)
        if not line.strip():
            continue
        m = LABEL.match(line)
        if m:
            name = m.group(1)
            if name in typed:
                current = functions.setdefault(name, [])
            elif current is not None:
                current.append(("label", name, None, None))
            continue
        if current is None:
            continue
        body = line.strip()
        if body.startswith(".size"):
            current = None
            continue
        if body.startswith("."):
            continue  # other directives (.p2align, .loc, ...)
        parts = body.split(None, 1)
        current.append(("insn", body, parts[0], parts[1] if len(parts) > 1 else ""))
    return functions


def is_branch(mnemonic):
    return bool(X86_BRANCH.match(mnemonic) or A64_BRANCH.match(mnemonic))


def first_operand(operands):
    return operands.split(",")[0].strip()


def loop_regions(items):
    """(region, instructions, label) of every backward branch: its target label .. the branch."""
    labels = {}
    for pos, (kind, text, mnemonic, operands) in enumerate(items):
        if kind == "label":
            labels[text] = pos
            continue
        if not is_branch(mnemonic):
            continue
        target = operands.split(",")[-1].strip()
        if target not in labels:
            continue  # forward branch
        region = items[labels[target]:pos + 1]
        yield region, [r for r in region if r[0] == "insn"], target


def find_loop(items):
    best = None
    for region, insns, target in loop_regions(items):
        if any(CALL.match(r[2]) or DIV.match(r[2]) for r in insns):
            continue
        cmps = sum(1 for r in insns if X86_CMP.match(r[2]) or
                   (A64_CMP.match(r[2]) and first_operand(r[3]).startswith("v")))
        dist = sum(1 for r in insns if X86_DIST.match(r[2]) or
                   (A64_DIST.match(r[2]) and first_operand(r[3]).startswith("v")))
        if cmps < 4 or dist < 4:
            continue
        if best is None or len(insns) < best[1]:
            best = (region, len(insns), dist, target)
    return best


def find_contact_loop(items):
    best = None
    for region, insns, target in loop_regions(items):
        vector = [r for r in insns if r[2].startswith("v") or first_operand(r[3]).startswith("v")]
        if any(CALL.match(r[2]) for r in insns):
            continue
        divs = sum(1 for r in vector if DIV.match(r[2]))
        sqrts = sum(1 for r in vector if SQRT.match(r[2]))
        if divs < 4 or sqrts < 1:
            continue
        # the whole formula (5 divisions, 2 square roots) if some region holds it, then smallest
        key = (-(min(divs, 5) + min(sqrts, 2)), len(insns))
        if best is None or key < best[3]:
            best = (region, len(insns), target, key)
    return best[:3] if best else None


def main_contacts(path, lanes):
    name = "c2d_mca_contact_loop"
    items = parse(path).get(name)
    found = find_contact_loop(items) if items else None
    if not found:
        sys.exit(f"{path}: no contact loop found in {name}")
    region, count, target = found
    for kind, text, _, _ in region:
        print(text + ":" if kind == "label" else "\t" + text)
    print(f"function={name} label={target} instructions={count} pairs={lanes}", file=sys.stderr)


def main():
    if len(sys.argv) == 4 and sys.argv[3] == "contacts":
        main_contacts(sys.argv[1], int(sys.argv[2]))
        return
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    path, lanes = sys.argv[1], int(sys.argv[2])
    functions = parse(path)
    for prefix in FUNCTIONS:
        for name, items in functions.items():
            if name != prefix and not name.startswith(prefix + "."):
                continue
            found = find_loop(items)
            if not found:
                continue
            region, count, dist, target = found
            for kind, text, _, _ in region:
                print(text + ":" if kind == "label" else "\t" + text)
            print(f"function={name} label={target} instructions={count} "
                  f"pairs={dist // 2 * lanes}", file=sys.stderr)
            return
    sys.exit(f"{path}: no loop of the box pass found in {', '.join(FUNCTIONS)}")


if __name__ == "__main__":
    main()
