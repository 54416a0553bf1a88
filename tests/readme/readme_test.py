#!/usr/bin/env python3
"""readme_test.py: runs the commands README.md shows and compares what they
print with what the README shows (`python3 tests/readme/readme_test.py BUILD`).

Blocks the test reads (fenced with ```):
  * ```sh blocks: a script; it must exit 0.
  * blocks whose first line starts with "$ ": a session. Each "$ " line (with
    its "\\" continuation lines) is a command; the lines up to the next "$ "
    line are what it prints (stdout and stderr together). In the shown
    output "…" (U+2026) stands for any text within a line (timings, paths)
    and a line that is only "…" for any number of lines.
Other blocks (file layouts, output without a command) are not commands.
An HTML comment on the line before a block says how to treat it:
  <!-- readme-test: skip WHY -->   never run (e.g. `make test` itself)
  <!-- readme-test: needs TOOL --> run only when TOOL is on the PATH
Commands run in a scratch directory holding links to the repository's
top-level entries (so files a command writes land there) with `build`
linked to BUILD. Exit 0 when every block matched, 1 otherwise.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARK = re.compile(r"<!--\s*readme-test:\s*(skip|needs)\s*(.*?)\s*-->")


def blocks(text):
    """Yields (line number, info string, body lines, directive) per fence."""
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        m = re.match(r"^```(\S*)\s*$", lines[i])
        if not m:
            i += 1
            continue
        start, info = i, m.group(1)
        directive = None
        if start > 0:
            d = MARK.search(lines[start - 1])
            if d:
                directive = (d.group(1), d.group(2))
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        yield start + 1, info, lines[i + 1:j], directive
        i = j + 1


def session(body):
    """Splits a "$ " block into [(command, expected lines)]."""
    out = []
    i = 0
    while i < len(body):
        line = body[i]
        if not line.startswith("$ "):
            raise ValueError("output before the first command: %r" % line)
        cmd = line[2:]
        while cmd.endswith("\\") and i + 1 < len(body):
            i += 1
            cmd = cmd[:-1] + " " + body[i].strip()
        i += 1
        exp = []
        while i < len(body) and not body[i].startswith("$ "):
            exp.append(body[i])
            i += 1
        while exp and exp[-1] == "":
            exp.pop()
        out.append((cmd, exp))
    return out


def line_re(pattern):
    return re.compile("^" + ".*".join(re.escape(p) for p in pattern.split("…")) + "$")


def matches(expected, actual):
    """True when the actual lines fit the shown ones ("…" wildcards)."""
    memo = {}

    def go(e, a):
        key = (e, a)
        if key in memo:
            return memo[key]
        if e == len(expected):
            r = a == len(actual)
        elif expected[e] == "…":
            r = any(go(e + 1, k) for k in range(a, len(actual) + 1))
        else:
            r = a < len(actual) and bool(line_re(expected[e]).match(actual[a])) and go(e + 1, a + 1)
        memo[key] = r
        return r

    return go(0, 0)


def run(cmd, cwd, env, timeout=600):
    p = subprocess.run(["sh", "-c", cmd], cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def packages():
    """The packages `make test` may install: Debian's from scripts/deps.sh
    (need="$need NAME"), PyPI's from PIP_PKGS="..." lines of the test scripts."""
    names = set()
    deps = open(os.path.join(ROOT, "scripts", "deps.sh"), encoding="utf-8").read()
    names.update(re.findall(r'need="\$need ([A-Za-z0-9.+-]+)"', deps))
    for d, _, files in os.walk(os.path.join(ROOT, "tests")):
        for f in files:
            if f.endswith((".sh", ".py")):
                t = open(os.path.join(d, f), encoding="utf-8", errors="replace").read()
                for m in re.findall(r'^PIP_PKGS="([^"]*)"', t, re.M):
                    names.update(n.split("==")[0].split(">=")[0] for n in m.split())
    return names


def main():
    build = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build"))
    readme = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "README.md")
    text = open(readme, encoding="utf-8").read()
    scratch = tempfile.mkdtemp(prefix="smemu-readme-")
    for name in os.listdir(ROOT):
        if name not in (".git", "build"):
            os.symlink(os.path.join(ROOT, name), os.path.join(scratch, name))
    os.symlink(build, os.path.join(scratch, "build"))
    env = dict(os.environ, SMEMU_CACHE=os.path.join(scratch, ".cache"), MAKEFLAGS="")
    env.pop("MAKELEVEL", None)
    fails = ran = skipped = 0
    try:
        for lineno, info, body, directive in blocks(text):
            is_session = bool(body) and body[0].startswith("$ ")
            if info != "sh" and not is_session:
                continue
            where = "README.md:%d" % lineno
            if directive and directive[0] == "skip":
                print("skip %s (%s)" % (where, directive[1]))
                skipped += 1
                continue
            if directive and directive[0] == "needs" and not shutil.which(directive[1]):
                print("skip %s (%s is not on the PATH)" % (where, directive[1]))
                skipped += 1
                continue
            if is_session:
                for cmd, exp in session(body):
                    ran += 1
                    _, out = run(cmd, scratch, env)
                    got = out.rstrip("\n").split("\n") if out.strip() else []
                    if matches(exp, got):
                        print("ok   %s $ %s" % (where, cmd[:70]))
                    else:
                        fails += 1
                        print("FAIL %s $ %s\n--- README shows:\n%s\n--- the command printed:\n%s" %
                              (where, cmd, "\n".join(exp), "\n".join(got)))
            else:
                ran += 1
                rc, out = run("set -e\n" + "\n".join(body), scratch, env)
                if rc == 0:
                    print("ok   %s (sh block)" % where)
                else:
                    fails += 1
                    print("FAIL %s (sh block, exit %d):\n%s" % (where, rc, out[-3000:]))
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    text_flat = text.replace("\n", " ")
    for name in sorted(packages()):
        if "`%s`" % name not in text_flat:
            fails += 1
            print("FAIL README.md does not name `%s`, which `make test` may install" % name)
        else:
            print("ok   README.md names `%s`" % name)
    print("readme: %d commands, %d failed, %d blocks skipped" % (ran, fails, skipped))
    return 1 if fails or ran == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
