#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Compare JUnit files of Slurm's python testsuite: stock and Horae.

  compare.py [--lost] STOCK.xml HORAE.xml [HORAE-RERUN.xml ...]
             [--paired STOCK-RERUN.xml HORAE-RERUN.xml ...]

Prints each side's counts, then every test whose outcome differs, with
the reason each side gave (a failure's first line, a skip's message).
A test that failed on Horae and passed in a rerun of it there counts as
passed, and is listed as such.  A --paired rerun ran the lost tests on
both sides at the same time: a test that failed on both there failed
with stock too under the same load, which says the machine, not the
plugins; it is listed as such and not held against Horae.  Exit 0 when
every test that passed with stock passed with Horae or was so excused,
else 1.  --lost prints only the pytest node ids of the tests that passed
with stock and are neither passed nor excused (yet) on Horae.
"""
import sys
import xml.etree.ElementTree as ET


def outcomes(path):
    """{name: (kind, why)} of a JUnit file, and {name: pytest node id}
    into the module-wide NODE_IDS."""
    res = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        name = f"{case.get('classname', '')}::{case.get('name', '')}"
        NODE_IDS[name] = node_id(case)
        kind, why = "passed", ""
        for child in case:
            if child.tag in ("failure", "error"):
                kind = "failed"
                why = (child.get("message") or child.text or "").strip()
                break
            if child.tag == "skipped":
                kind = "skipped"
                why = (child.get("message") or "").strip()
                break
        res[name] = (kind, why.splitlines()[0][:160] if why else "")
    return res


NODE_IDS = {}


def node_id(case):
    """The pytest node id of a JUnit testcase, from its file: classname
    tests.commands.srun.test_--wait, name test_wait ->
    tests/commands/srun/test_--wait.py::test_wait; a test in a class,
    classname tests.commands.srun.test_x.Test_x ->
    tests/commands/srun/test_x.py::Test_x::NAME.  Without a file
    attribute, the classname is taken for the module."""
    cls, test = case.get("classname", ""), case.get("name", "")
    path = case.get("file")
    if not path:
        return cls.replace(".", "/") + ".py::" + test
    module = path[:-3].replace("/", ".") if path.endswith(".py") else path
    inner = cls[len(module) + 1:] if cls.startswith(module + ".") else ""
    return "::".join([path] + inner.split(".") * bool(inner) + [test])


def counts(res):
    c = {"passed": 0, "failed": 0, "skipped": 0}
    for kind, _ in res.values():
        c[kind] += 1
    return c


def main():
    args = sys.argv[1:]
    lost_only = args[:1] == ["--lost"]
    if lost_only:
        args = args[1:]
    paired = []
    while "--paired" in args:
        i = args.index("--paired")
        if len(args) < i + 3:
            print(__doc__.strip(), file=sys.stderr)
            return 2
        paired.append((args[i + 1], args[i + 2]))
        del args[i:i + 3]
    if len(args) < 2:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    stock, horae = outcomes(args[0]), outcomes(args[1])
    rerun_passed = set()
    for path in args[2:] + [h for _, h in paired]:
        for name, (kind, _) in outcomes(path).items():
            if kind == "passed" and horae.get(name, ("",))[0] == "failed":
                horae[name] = ("passed", "failed once, passed on a rerun")
                rerun_passed.add(name)
    # Failed on both sides of one paired rerun: {name: stock's reason}.
    excused = {}
    for spath, hpath in paired:
        s_out, h_out = outcomes(spath), outcomes(hpath)
        for name, (kind, why) in s_out.items():
            if (kind == "failed" and name not in rerun_passed and
                    h_out.get(name, ("",))[0] == "failed"):
                excused.setdefault(name, why)
    lost = sorted(k for k, v in stock.items() if v[0] == "passed" and
                  horae.get(k, ("absent",))[0] != "passed" and
                  k not in excused)
    if lost_only:
        print(" ".join(NODE_IDS[k] for k in lost))
        return 0
    if not stock or not horae:
        print("compare.py: no tests ran on one side: see its pytest log",
              file=sys.stderr)
        return 2
    cs, ch = counts(stock), counts(horae)
    print("Slurm's python testsuite, stock plugins vs Horae's")
    print(f"{'':8} {'passed':>7} {'failed':>7} {'skipped':>8} {'total':>6}")
    for label, c in (("stock", cs), ("horae", ch)):
        print(f"{label:8} {c['passed']:7} {c['failed']:7} {c['skipped']:8} "
              f"{sum(c.values()):6}")
    print("\nDifferences (test: stock -> horae):")
    n = 0
    for name in sorted(set(stock) | set(horae)):
        s = stock.get(name, ("absent", ""))
        h = horae.get(name, ("absent", ""))
        if s[0] == h[0]:
            continue
        n += 1
        print(f"  {name}: {s[0]} -> {h[0]}")
        for label, o in (("stock", s), ("horae", h)):
            if o[1]:
                print(f"      {label}: {o[1]}")
    if not n:
        print("  none")
    if rerun_passed:
        print(f"\nFailed on Horae, then passed on a rerun ({len(rerun_passed)}):")
        for name in sorted(rerun_passed):
            print(f"  {name}")
    if excused:
        print(f"\nPassed with stock, failed on Horae, then failed on both "
              f"side by side in a rerun ({len(excused)}): the machine, not "
              "the plugins:")
        for name in sorted(excused):
            print(f"  {name}: stock in the rerun: {excused[name]}")
    both = sorted(k for k in stock if stock[k][0] == "failed" and
                  horae.get(k, ("",))[0] == "failed")
    print(f"\nFailing on both ({len(both)}): the machine or the harness, "
          "not the plugins (doc/witness.md):")
    for name in both:
        print(f"  {name}: {stock[name][1]}")
    print(f"\nPassed with stock, not with Horae: {len(lost)}")
    for name in lost:
        print(f"  {name}")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
