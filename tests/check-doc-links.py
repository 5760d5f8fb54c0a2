#!/usr/bin/env python3
"""check-doc-links.py SOURCE_ROOT: every relative link and anchor in
README.md and docs/ resolves.

A link to a file must name a file or folder of the repository (not one
beside it, which a reader of the repository does not have); a link with
an anchor (`#...`) must name a heading of the Markdown file it points to,
as GitHub turns headings into anchors. Links inside code (fenced blocks
and `inline code`) are not links. Exits 1, listing every broken link with
its file and line, when one does not resolve."""
import os
import re
import sys

LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)")
HTML_REF = re.compile(r"""<(?:img|a)\b[^>]*?\b(?:src|href)\s*=\s*["']([^"']+)["']""", re.I)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
HTML_ANCHOR = re.compile(r"""<a\s+(?:name|id)\s*=\s*["']([^"']+)["']""", re.I)


def strip_code(lines):
    """The lines outside fenced code blocks, inline code blanked; each
    with its line number."""
    fence = None
    for number, line in enumerate(lines, 1):
        stripped = line.lstrip()
        if fence:
            if stripped.startswith(fence):
                fence = None
            continue
        m = re.match(r"(`{3,}|~{3,})", stripped)
        if m:
            fence = m.group(1)
            continue
        yield number, re.sub(r"(`+)(?:(?!\1).)+?\1", "``", line)


def slug(text):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", text)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = text.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        found, seen = set(), {}
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        fence = None
        for line in lines:
            stripped = line.lstrip()
            if fence:
                if stripped.startswith(fence):
                    fence = None
                continue
            m = re.match(r"(`{3,}|~{3,})", stripped)
            if m:
                fence = m.group(1)
                continue
            for a in HTML_ANCHOR.findall(line):
                found.add(a)
            m = HEADING.match(line)
            if not m:
                continue
            base = slug(m.group(2))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else "%s-%d" % (base, n))
        cache[path] = found
    return cache[path]


def check(root, path):
    errors = []
    rel = os.path.relpath(path, root)
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    for number, line in strip_code(lines):
        for target in LINK.findall(line) + HTML_REF.findall(line):
            if not target or re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):
                continue  # an address of the web, mail, ...
            where = "%s:%d: %s" % (rel, number, target)
            file_part, _, anchor = target.partition("#")
            if file_part:
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
                if os.path.relpath(dest, root).startswith(".."):
                    errors.append(where + ": outside the repository")
                    continue
                if not os.path.exists(dest):
                    errors.append(where + ": no such file")
                    continue
            else:
                dest = path
            if anchor:
                if not dest.endswith(".md") or not os.path.isfile(dest):
                    errors.append(where + ": an anchor into a file that is not Markdown")
                elif anchor not in anchors(dest):
                    errors.append(where + ": %s has no heading with that anchor"
                                  % os.path.relpath(dest, root))
    return errors


def main():
    root = os.path.abspath(sys.argv[1])
    files = [os.path.join(root, "README.md")]
    for folder, _, names in os.walk(os.path.join(root, "docs")):
        files += [os.path.join(folder, n) for n in sorted(names) if n.endswith(".md")]
    errors, links = [], 0
    for path in files:
        errors += check(root, path)
    for e in errors:
        print(e)
    print("%d Markdown files, %d broken links" % (len(files), len(errors)))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
