#!/usr/bin/env python3
"""cli-reference.py CLI OUTPUT: writes the command-line reference, docs/cli.md,
from chronoscope-cli's own help: the list of commands, then each command's
`--help` as it prints it, and the help of the sub-commands and modes a
command's help points to (`chronoscope-cli job reduce --help`).

cli-reference.py --check CLI DOC GENERATED: writes the reference into
GENERATED (in the build directory) and fails, showing the difference, when
DOC is not the same, so that the reference cannot drift from the options.

The help is read in the C.UTF-8 locale, untranslated."""
import difflib
import os
import re
import subprocess
import sys

REFRESH = ("ninja -C _build src/cli/chronoscope-cli && "
           "python3 tests/cli-reference.py _build/src/cli/chronoscope-cli docs/cli.md")


def help_text(cli, args):
    env = dict(os.environ, LC_ALL="C.UTF-8", LANG="C.UTF-8")
    env.pop("LANGUAGE", None)
    r = subprocess.run([cli] + args + ["--help"], env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit("chronoscope-cli %s --help exited with %d:\n%s"
                         % (" ".join(args), r.returncode, r.stderr))
    return "\n".join(line.rstrip() for line in r.stdout.strip("\n").split("\n"))


def commands(top):
    """The commands and their summaries, from the top-level help."""
    found, inside = [], False
    for line in top.split("\n"):
        if line.strip() == "Commands:":
            inside = True
            continue
        if inside:
            m = re.match(r"^\s+([a-z][a-z0-9-]*)\s+(.*)$", line)
            if not m:
                break
            found.append((m.group(1), m.group(2)))
    return found


def pointers(text, command):
    """The further help a command's help points to: “chronoscope-cli
    COMMAND WORDS --help”, in the order named."""
    found = []
    for m in re.finditer(r"chronoscope-cli %s ((?:[a-z-][a-z0-9-]* ?)+?) ?--help" % re.escape(command), text):
        words = m.group(1).split()
        if words and words not in found:
            found.append(words)
    return found


def fence(text):
    return "```text\n%s\n```\n" % text


def generate(cli):
    top = help_text(cli, [])
    cmds = commands(top)
    if not cmds:
        raise SystemExit("no commands in chronoscope-cli --help:\n" + top)
    out = [
        "# `chronoscope-cli` reference",
        "",
        "Every command's `--help`, as `chronoscope-cli` prints it. This file is",
        "generated from the program, and a test fails when it differs from what",
        "the program prints; to bring it up to date after changing an option,",
        "from the repository root:",
        "",
        "```sh",
        REFRESH,
        "```",
        "",
        "What the commands are for, with examples, is in the user guide:",
        "[the command line](command-line.md).",
        "",
        "## Commands",
        "",
        " · ".join("[%s](#%s)" % (name, name) for name, _ in cmds),
        "",
        "`chronoscope-cli --help`:",
        "",
        fence(top),
    ]
    for name, summary in cmds:
        out += ["## %s" % name, "", "%s. `chronoscope-cli %s --help`:" % (summary, name), "",
                fence(help_text(cli, [name]))]
        for words in pointers(help_text(cli, [name]), name):
            full = " ".join([name] + words)
            out += ["### %s" % full, "", "`chronoscope-cli %s --help`:" % full, "",
                    fence(help_text(cli, [name] + words))]
    return "\n".join(out).rstrip("\n") + "\n"


def main(argv):
    if argv[1:2] == ["--check"]:
        cli, doc, generated = argv[2:5]
        text = generate(cli)
        with open(generated, "w", encoding="utf-8") as f:
            f.write(text)
        with open(doc, encoding="utf-8") as f:
            current = f.read()
        if current == text:
            print("%s is what chronoscope-cli --help prints" % doc)
            return 0
        sys.stdout.writelines(difflib.unified_diff(
            current.splitlines(True), text.splitlines(True),
            "docs/cli.md", "chronoscope-cli --help (%s)" % generated))
        print("\ndocs/cli.md differs from the options chronoscope-cli has; refresh it with:\n  "
              + REFRESH)
        return 1
    if len(argv) != 3:
        print(__doc__)
        return 2
    text = generate(argv[1])
    with open(argv[2], "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
