#!/usr/bin/env python3
"""Write scripts/grade's results in the formats course tools read.

  results.json  Gradescope's autograder output (the keys of its
                "Autograder Specifications": score, execution_time, output,
                tests[] with score, max_score, name, number, output)
  junit.xml     JUnit XML (testsuites/testsuite/testcase/failure), as GitHub
                Actions reporters and GitLab's test reports read it
  classroom.json  the input of GitHub Classroom's reporter
                (classroom-resources/autograding-grading-reporter): what a
                runner step outputs, base64-encoded, as "result": version,
                status, max_score, and tests[] with their score, which it
                adds up: partial credit, check by check

The input is scripts/grade's checks file: one tab-separated line per
check, NAME, POINTS, SCORED, SECONDS, REASON (empty when it passed),
KIND ("stage": the assignment's own behaviour; "works": it builds and
boots; "required": what a working kernel and the stages before do, worth
no points, and a failure caps the grade) and EVIDENCE (a file of what the tool said: checkpatch's lines,
gdb's, the compiler's; empty when none), of which the results carry the
first few KB: a student reads them, never a path on the grader.

Usage: grade_report.py --checks FILE --stage N --seconds S --out DIR
                       [--quick] [--capped REASON]
"""
import argparse
import json
import os
import xml.etree.ElementTree as ET

EVIDENCE_MAX = 4000  # characters of a check's evidence in the results


def read_checks(path):
    checks = []
    with open(path) as f:
        for line in f:
            name, pts, scored, secs, why, kind, evidence = line.rstrip("\n").split("\t")
            # passed: no reason, or "OK, but not counted" (the cap)
            checks.append(dict(name=name, max=int(pts), score=int(scored),
                               secs=secs, why=why, kind=kind,
                               passed=not why or why.startswith("OK, "),
                               evidence=read_evidence(evidence)))
    return checks


def read_evidence(path):
    if not path or not os.path.isfile(path):
        return ""
    with open(path, errors="replace") as f:
        text = f.read(EVIDENCE_MAX + 1)
    return text[:EVIDENCE_MAX] + ("\n[...]" if len(text) > EVIDENCE_MAX else "")


def title(stage, quick):
    """What was graded; a quick grade says that it is one."""
    return f"spinkit assignment {stage}" + (" (quick: the stage's own checks only)" if quick else "")


def verdict(c):
    """A check's result in words: OK, or FAIL and why; a check that passed
    but was not counted (the cap) says so too."""
    if not c["why"]:
        return "OK" + (" (required: no points; a failure caps the grade)" if c["kind"] == "required" else "")
    if c["passed"]:
        return c["why"]
    return "FAIL: " + c["why"] + (" (required: the grade is capped)" if c["kind"] == "required" else "")


def results_json(checks, stage, seconds, quick, capped):
    tests = []
    for i, c in enumerate(checks, 1):
        out = f"{verdict(c)} ({c['secs']} s)"
        if c["evidence"]:
            out += "\n\n" + c["evidence"]
        tests.append({"score": float(c["score"]), "max_score": float(c["max"]),
                      "name": c["name"], "number": f"{stage}.{i}",
                      "status": "passed" if c["passed"] else "failed",
                      "output": out, "tags": [c["kind"]]})
    score = sum(c["score"] for c in checks)
    total = sum(c["max"] for c in checks)
    output = f"{title(stage, quick)}: {score}/{total}"
    if capped:
        output += f" ({capped}; GRADE_CAP=0 turns the cap off)"
    return {"score": float(score), "execution_time": int(seconds),
            "output": output, "tests": tests}


def classroom_json(checks, stage, quick):
    return {"version": 1,
            "status": "pass" if all(c["passed"] and c["score"] == c["max"] for c in checks) else "fail",
            "max_score": sum(c["max"] for c in checks),
            "tests": [{"name": c["name"],
                       "status": "pass" if c["passed"] and c["score"] == c["max"] else "fail",
                       "score": c["score"], "message": verdict(c),
                       "test_code": f"make grade STAGE={stage}" + (" QUICK=1" if quick else ""),
                       "filename": "", "line_no": 0,
                       "duration": int(c["secs"]) * 1000 if c["secs"].isdigit() else 0}
                      for c in checks]}


def junit_xml(checks, stage, seconds, quick):
    suites = ET.Element("testsuites")
    suite = ET.SubElement(suites, "testsuite", {
        "name": title(stage, quick),
        "tests": str(len(checks)),
        "failures": str(sum(1 for c in checks if not c["passed"])),
        "errors": "0", "skipped": "0", "time": str(seconds)})
    for c in checks:
        case = ET.SubElement(suite, "testcase", {
            "classname": f"assignment{stage}.{c['kind']}", "name": c["name"],
            "time": c["secs"] if c["secs"].isdigit() else "0"})
        if not c["passed"]:
            fail = ET.SubElement(case, "failure", {"message": c["why"]})
            fail.text = f"{c['why']} (0/{c['max']} pts)"
            if c["evidence"]:
                fail.text += "\n\n" + c["evidence"]
    ET.indent(suites)
    return ET.tostring(suites, encoding="unicode", xml_declaration=True)


def main():
    p = argparse.ArgumentParser(prog="grade_report")
    p.add_argument("--checks", required=True)
    p.add_argument("--stage", type=int, required=True)
    p.add_argument("--seconds", type=int, required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--quick", action="store_true")
    p.add_argument("--capped", default="")
    args = p.parse_args()
    checks = read_checks(args.checks)
    with open(os.path.join(args.out, "results.json"), "w") as f:
        json.dump(results_json(checks, args.stage, args.seconds, args.quick, args.capped), f, indent=2)
        f.write("\n")
    with open(os.path.join(args.out, "junit.xml"), "w") as f:
        f.write(junit_xml(checks, args.stage, args.seconds, args.quick) + "\n")
    with open(os.path.join(args.out, "classroom.json"), "w") as f:
        json.dump(classroom_json(checks, args.stage, args.quick), f)
        f.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
