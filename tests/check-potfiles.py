#!/usr/bin/env python3
"""check-potfiles.py SOURCE_ROOT: po/POTFILES.in names every source file
with a string marked for translation, and only files that exist.

A C file is marked when it calls _(), N_(), C_(), ngettext() or
g_dngettext() on a string literal; a template when it has a translatable
property. Exits 1, listing what is missing or stale."""
import os
import re
import sys

MARKED_C = re.compile(r'(?<![A-Za-z0-9_])(?:_|N_|C_|ngettext|g_dngettext|g_dgettext)\s*\(\s*(?:GETTEXT_PACKAGE\s*,\s*)?"')
MARKED_UI = re.compile(r'translatable="yes"')


def marked(root):
    found = set()
    for top in ("src", "ui"):
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                path = os.path.join(folder, name)
                pattern = MARKED_C if name.endswith(".c") else MARKED_UI if name.endswith(".ui") else None
                if pattern is None:
                    continue
                with open(path, encoding="utf-8") as f:
                    if pattern.search(f.read()):
                        found.add(os.path.relpath(path, root))
    return found


def main():
    root = sys.argv[1]
    with open(os.path.join(root, "po", "POTFILES.in"), encoding="utf-8") as f:
        listed = [l.strip() for l in f if l.strip() and not l.startswith("#")]
    missing = sorted(marked(root) - set(listed))
    stale = sorted(p for p in listed if not os.path.exists(os.path.join(root, p)))
    for p in missing:
        print("po/POTFILES.in: %s has translatable strings but is not listed" % p)
    for p in stale:
        print("po/POTFILES.in: %s does not exist" % p)
    if listed != sorted(listed):
        print("po/POTFILES.in: not sorted")
        return 1
    return 1 if missing or stale else 0


if __name__ == "__main__":
    sys.exit(main())
