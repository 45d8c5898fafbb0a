#!/usr/bin/env python3
"""Write scripts/grade's results in the formats course tools read.

  results.json  Gradescope's autograder output (the keys of its
                "Autograder Specifications": score, execution_time, output,
                tests[] with score, max_score, name, number, output)
  junit.xml     JUnit XML (testsuites/testsuite/testcase/failure), as GitHub
                Actions reporters and GitLab's test reports read it

The input is scripts/grade's checks file: one tab-separated line per
check, NAME, POINTS, SCORED, SECONDS, REASON (empty when it passed),
KIND ("stage": the assignment's own behaviour, "works": the kernel still
works).

Usage: grade_report.py --checks FILE --stage N --seconds S --out DIR
"""
import argparse
import json
import os
import xml.etree.ElementTree as ET


def read_checks(path):
    checks = []
    with open(path) as f:
        for line in f:
            name, pts, scored, secs, why, kind = line.rstrip("\n").split("\t")
            checks.append(dict(name=name, max=int(pts), score=int(scored),
                               secs=secs, why=why, kind=kind))
    return checks


def title(stage, quick):
    """What was graded; a quick grade says that it is one."""
    return f"spinkit assignment {stage}" + (" (quick: the stage's own checks only)" if quick else "")


def results_json(checks, stage, seconds, quick):
    tests = []
    for i, c in enumerate(checks, 1):
        out = "OK" if not c["why"] else "FAIL: " + c["why"]
        tests.append({"score": float(c["score"]), "max_score": float(c["max"]),
                      "name": c["name"], "number": f"{stage}.{i}",
                      "output": f"{out} ({c['secs']} s)",
                      "tags": [c["kind"]]})
    score = sum(c["score"] for c in checks)
    total = sum(c["max"] for c in checks)
    return {"score": float(score), "execution_time": int(seconds),
            "output": f"{title(stage, quick)}: {score}/{total}",
            "tests": tests}


def junit_xml(checks, stage, seconds, quick):
    suites = ET.Element("testsuites")
    suite = ET.SubElement(suites, "testsuite", {
        "name": title(stage, quick),
        "tests": str(len(checks)),
        "failures": str(sum(1 for c in checks if c["why"])),
        "errors": "0", "skipped": "0", "time": str(seconds)})
    for c in checks:
        case = ET.SubElement(suite, "testcase", {
            "classname": f"assignment{stage}.{c['kind']}", "name": c["name"],
            "time": c["secs"] if c["secs"].isdigit() else "0"})
        if c["why"]:
            fail = ET.SubElement(case, "failure", {"message": c["why"]})
            fail.text = f"{c['why']} (0/{c['max']} pts)"
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True)


def main():
    p = argparse.ArgumentParser(prog="grade_report")
    p.add_argument("--checks", required=True)
    p.add_argument("--stage", type=int, required=True)
    p.add_argument("--seconds", type=int, required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--quick", action="store_true")
    args = p.parse_args()
    checks = read_checks(args.checks)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results_json(checks, args.stage, args.seconds, args.quick), f, indent=2)
        f.write("\n")
    with open(os.path.join(args.out, "junit.xml"), "w") as f:
        f.write(junit_xml(checks, args.stage, args.seconds, args.quick) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
