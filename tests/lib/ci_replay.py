#!/usr/bin/env python3
"""Run a course CI template's steps here as its CI runs them, for the tests.

  ci_replay.py github WORKFLOW --workspace DIR [--repo NAME=PATH]... [--cache PATH=DIR]...
  ci_replay.py gitlab CI_FILE --workspace DIR [--var NAME=VALUE]...

GitHub Actions: the job's steps in order.  A `run:` step is `bash -e` in the
workspace with what the runner gives it (PATH, HOME, CI, GITHUB_WORKSPACE,
GITHUB_OUTPUT, GITHUB_ENV, the workflow's and the job's env) and nothing
else; `if: always()` steps run after a failure, others do not.  A step's
outputs are read from its GITHUB_OUTPUT file, as `${{ steps.ID.outputs.X }}`.
The actions are played from what their sources do:
  actions/checkout    with no repository: the workspace is the checkout;
                      with one: a clone of --repo NAME's PATH at `ref`,
                      into `path`
  actions/cache, actions/cache/restore  restores --cache PATH's DIR at
                      PATH (a symlink); actions/cache/save: PATH must exist
  actions/upload-artifact  the path must exist
  classroom-resources/autograding-grading-reporter  as its src/main.js and
                      notify-classroom.js: for each runner, the base64 JSON
                      in env RUNNER_RESULTS; "Points TOTAL/MAX" is the sum of
                      tests[].score over the sum of max_score; the step
                      fails when a runner's status is "fail"
GitLab CI: the job's script lines, one `bash -e -c` each, with its
variables (--var sets one, as the project's CI/CD settings would) and
CI_PROJECT_DIR.  Prints each step's name and status, and the reporter's
points; exits 1 when a step other than the reporter failed.
"""
import argparse
import base64
import json
import os
import re
import subprocess
import sys

import yaml

EXPR = re.compile(r"\$\{\{\s*([^}]*?)\s*\}\}")


def shell(cmd, cwd, env):
    print(f"$ {cmd}", flush=True)
    return subprocess.run(["bash", "-e", "-c", cmd], cwd=cwd, env=env).returncode


def base_env(workspace):
    return {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/root"),
            "CI": "true", "LANG": "C.UTF-8"}


def read_outputs(path):
    out = {}
    if os.path.exists(path):
        for line in open(path):
            if "=" in line:
                k, v = line.rstrip("\n").split("=", 1)
                out[k] = v
    return out


def github(args):
    wf = yaml.safe_load(open(args.file))
    (job_name, job), = wf["jobs"].items()
    ws = os.path.abspath(args.workspace)
    repos = dict(x.split("=", 1) for x in args.repo)
    caches = dict(x.split("=", 1) for x in args.cache)
    env = dict(wf.get("env") or {})
    env.update(job.get("env") or {})
    outputs = {}

    def expand(value):
        def one(m):
            e = m.group(1)
            if e.startswith("env."):
                return str(env[e[4:]])
            if e == "github.run_id":
                return "1"
            g = re.fullmatch(r"steps\.(\w+)\.outputs\.(\w+)", e)
            if g:
                return outputs.get(g.group(1), {}).get(g.group(2), "")
            raise SystemExit(f"ci_replay: cannot evaluate ${{{{ {e} }}}}")
        return EXPR.sub(one, str(value))

    failed = False
    reporter_points = None
    for n, step in enumerate(job["steps"]):
        name = step.get("name") or step.get("uses") or step.get("run")
        cond = str(step.get("if", "success()"))
        if failed and "always()" not in cond:
            print(f"-- {name}: skipped (an earlier step failed)")
            continue
        with_ = {k: expand(v) for k, v in (step.get("with") or {}).items()}
        step_env = {k: expand(v) for k, v in (step.get("env") or {}).items()}
        uses = step.get("uses", "")
        rc = 0
        if "run" in step:
            out_file = os.path.join(ws, f".github-output-{n}")
            open(out_file, "w").close()
            e = base_env(ws)
            e.update({k: str(v) for k, v in env.items()})
            e.update(step_env)
            e.update({"GITHUB_WORKSPACE": ws, "GITHUB_OUTPUT": out_file,
                      "GITHUB_ENV": os.path.join(ws, ".github-env"), "GITHUB_ACTIONS": "true"})
            rc = shell(expand(step["run"]), ws, e)
            if "id" in step:
                outputs[step["id"]] = read_outputs(out_file)
            os.unlink(out_file)
        elif uses.startswith("actions/checkout@"):
            if "repository" in with_:
                src = repos[with_["repository"]]
                dest = os.path.join(ws, with_.get("path", "."))
                cmd = ["git", "clone", "-q", src, dest]
                if "ref" in with_:
                    cmd[3:3] = ["--branch", with_["ref"]]
                rc = subprocess.run(cmd).returncode
        elif uses.startswith(("actions/cache@", "actions/cache/restore@")):
            path = with_["path"]
            if path in caches:
                dest = os.path.join(ws, path)
                os.makedirs(os.path.dirname(dest), exist_ok=True)
                if not os.path.lexists(dest):
                    os.symlink(caches[path], dest)
        elif uses.startswith("actions/cache/save@"):
            rc = 0 if os.path.exists(os.path.join(ws, with_["path"])) else 1
        elif uses.startswith("actions/upload-artifact@"):
            rc = 0 if os.path.exists(os.path.join(ws, with_["path"])) else 1
        elif uses.startswith("classroom-resources/autograding-grading-reporter@"):
            results = []
            process_env = {k: str(v) for k, v in env.items()}
            process_env.update(step_env)
            for runner in with_["runners"].split(","):
                encoded = process_env[f"{runner.strip().upper()}_RESULTS"]
                results.append(json.loads(base64.b64decode(encoded)))
            total = sum(t["score"] for r in results if r.get("max_score") for t in r["tests"])
            most = sum(r["max_score"] for r in results if r.get("max_score"))
            reporter_points = (total, most)
            print(f"Points {total}/{most}")
            rc = 1 if any(r["status"] == "fail" for r in results) else 0
        else:
            raise SystemExit(f"ci_replay: no replay for {uses}")
        print(f"-- {name}: {'ok' if rc == 0 else 'failed (%d)' % rc}", flush=True)
        if rc != 0 and not uses.startswith("classroom-resources/"):
            failed = True
    if reporter_points is None:
        print("ci_replay: the workflow has no reporter step")
        return 1
    return 1 if failed else 0


def gitlab(args):
    ci = yaml.safe_load(open(args.file))
    (name, job), = ((k, v) for k, v in ci.items() if isinstance(v, dict) and "script" in v)
    ws = os.path.abspath(args.workspace)
    env = base_env(ws)
    env.update({k: str(v) for k, v in (job.get("variables") or {}).items()})
    env.update(dict(x.split("=", 1) for x in args.var))
    env.update({"CI_PROJECT_DIR": ws, "GITLAB_CI": "true"})
    for line in job["script"]:
        rc = shell(line, ws, env)
        if rc != 0:
            print(f"-- {name}: failed ({rc})")
            return 1
    print(f"-- {name}: ok")
    return 0


def main():
    p = argparse.ArgumentParser(prog="ci_replay")
    p.add_argument("kind", choices=["github", "gitlab"])
    p.add_argument("file")
    p.add_argument("--workspace", required=True)
    p.add_argument("--repo", action="append", default=[])
    p.add_argument("--cache", action="append", default=[])
    p.add_argument("--var", action="append", default=[])
    args = p.parse_args()
    return github(args) if args.kind == "github" else gitlab(args)


if __name__ == "__main__":
    sys.exit(main())
