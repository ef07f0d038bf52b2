#!/usr/bin/env python3
"""The papers' descriptions (papers/KEY/paper.def), for the Python tools.

A paper.def is `field value` lines (`#` starts a comment): order, key,
short, title, authors, year, link (an arXiv identifier, then a note),
text, header, needs, sections.
"""
import glob
import re
import sys
import os


def read(root="."):
    """The papers as dicts, in their `order`; each also has `dir` (papers/KEY)."""
    out = []
    for path in glob.glob(os.path.join(root, "papers", "*", "paper.def")):
        d = {"dir": os.path.relpath(os.path.dirname(path), root)}
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.strip()
                if not line or line.startswith("#"):
                    continue
                field, _, value = line.partition(" ")
                d[field] = value.strip()
        d["sections"] = d.get("sections", "").split()
        d["needs"] = d.get("needs", "").split()
        out.append(d)
    return sorted(out, key=lambda d: int(d.get("order", "99")))


def chapter_pages(root, paper):
    """The chapter pages (`\\page ch_...` labels) of a paper's sections, in order."""
    out = []
    for s in paper["sections"]:
        path = os.path.join(root, paper["dir"], s + ".c")
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                out += re.findall(r"[\\@]page\s+(ch_\w+)", f.read())
    return out


def generated(root, what):
    """Markdown for a `<!-- paper.def: WHAT -->` line of a docs page."""
    papers = read(root)
    lines = []
    if what == "papers":
        lines += ["| key | paper | folder | chapters |", "|---|---|---|---|"]
        for p in papers:
            chapters = ", ".join("\\ref " + c for c in chapter_pages(root, p))
            cite = "%s, *%s*" % (p["authors"], p["title"])
            if p.get("year"):
                cite += ", %s" % p["year"]
            if p.get("link", "").startswith("arXiv:"):
                ident, _, note = p["link"].partition(" ")
                cite += ", [%s](https://arxiv.org/abs/%s)%s" % (ident, ident[len("arXiv:"):], " " + note if note else "")
            lines.append("| `%s` | %s | `%s/` | %s |" % (p["key"], cite, p["dir"], chapters))
    elif what == "chapters":
        for p in papers:
            lines += ["", "<h2>%s — %s</h2>" % (p["key"], p["title"]), ""]
            lines += ["- \\subpage " + c for c in chapter_pages(root, p)]
    elif what == "errata":
        for p in papers:
            k = p["key"]
            lines += ["\\if errata_" + k, "- \\subpage errata_" + k, "\\else",
                      "- \\anchor errata_%s \\anchor errata_%s \\anchor errata_%s_page %s (%s): no erratum recorded yet."
                      % (k, k.lower(), k, k, p["short"]), "\\endif"]
    else:
        raise SystemExit("paperdefs: unknown generated block %r" % what)
    return "\n".join(lines)


def generated_file(name):
    """A page the build wrote into $CL_GEN (default build/gen), e.g. the
    equation coverage table of tools/eqcoverage."""
    path = os.path.join(os.environ.get("CL_GEN", "build/gen"), name)
    if not os.path.exists(path):
        return "*Not generated yet: run `make docs`.*"
    with open(path, encoding="utf-8") as f:
        return f.read()


def main(argv):
    """`paperdefs.py filter FILE`: a Doxygen input filter that replaces each
    line `<!-- paper.def: WHAT -->` (papers, chapters, errata) by what the
    papers' paper.def say, and each `<!-- generated: NAME -->` by the file
    NAME the build wrote into $CL_GEN."""
    if len(argv) != 3 or argv[1] != "filter":
        sys.stderr.write("usage: tools/paperdefs.py filter FILE\n")
        return 2
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(argv[2], encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"^<!-- paper\.def: (\w+) -->$", lambda m: generated(root, m.group(1)), text, flags=re.M)
    text = re.sub(r"^<!-- generated: ([\w.]+) -->$", lambda m: generated_file(m.group(1)), text, flags=re.M)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
