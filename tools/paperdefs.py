#!/usr/bin/env python3
"""The papers' descriptions (papers/KEY/paper.def), for the Python tools.

A paper.def is `field value` lines (`#` starts a comment): order, key,
short, title, authors, year, venue (where it appeared, as far as the text
we hold or its arXiv record says), doi, link (an arXiv identifier, then a
note), text, header, needs, sections.
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


def arxiv(paper):
    """(identifier, note) of a paper's `link`, or (None, None)."""
    link = paper.get("link", "")
    if not link.startswith("arXiv:"):
        return None, None
    ident, _, note = link.partition(" ")
    return ident[len("arXiv:"):], note.strip("() ")


def bibtex(papers):
    """The papers as BibTeX entries keyed by their `key` (S2, EMB, ...), for
    Doxygen's CITE_BIB_FILES: \\cite S2 in a page links to the entry."""
    def esc(s):
        return s.replace("&", "\\&").replace("%", "\\%")
    out = []
    for p in papers:
        fields = [("author", " and ".join(a.strip() for a in p["authors"].split(","))),
                  ("title", "{%s}" % esc(p["title"]))]
        if p.get("year"):
            fields.append(("year", p["year"]))
        ident, note = arxiv(p)
        how = []
        if p.get("venue"):
            how.append(esc(p["venue"]))
        if ident:
            how.append("arXiv:%s" % ident)
            fields.append(("url", "https://arxiv.org/abs/%s" % ident))
        if note:
            how.append(esc(note))
        if how:
            fields.append(("howpublished", "; ".join(how)))
        if p.get("doi"):
            fields.append(("doi", p["doi"]))
        out.append("@misc{%s,\n%s\n}\n" % (p["key"], ",\n".join("  %s = {%s}" % f for f in fields)))
    return "\n".join(out)


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
            if p.get("venue"):
                cite += ", %s" % p["venue"]
            if p.get("year"):
                cite += ", %s" % p["year"]
            ident, note = arxiv(p)
            if ident:
                cite += ", [arXiv:%s](https://arxiv.org/abs/%s)%s" % (ident, ident, " (" + note + ")" if note else "")
            if p.get("doi"):
                cite += ", doi:[%s](https://doi.org/%s)" % (p["doi"], p["doi"])
            cite += " \\cite %s" % p["key"]
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


def chapter_filter(root, path):
    """Doxygen input filter of C sources: the TeX command \\dot becomes
    \\cldot (a MathJax macro for \\dot, docs/mathjax-macros.js), because
    Doxygen 1.9.4's preprocessor reads "\\dot" as the start of a graphviz
    block; and a chapter page (the comment holding \\page ch_...) of
    papers/KEY/ ends with its paper's citation, \\cite KEY. The line count is
    kept, so that line numbers stay those of the file."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"\\dot(?![A-Za-z0-9_])", r"\\cldot", text)
    parts = os.path.normpath(path).split(os.sep)
    if len(parts) >= 3 and parts[-3] == "papers":
        key = {p["dir"].split("/")[-1]: p["key"] for p in read(root)}.get(parts[-2])
        m = re.search(r"[\\@]page\s+ch_\w+", text)
        end = text.find("*/", m.end()) if m else -1
        if key and end >= 0:
            # before each further page of the comment and before its end, so
            # that every page ends with the citation; no line is added
            cite = "<p>From \\cite %s.</p> " % key
            cuts = [k.start() for k in re.finditer(r"[\\@]page\s+ch_\w+", text[m.end():end])]
            for at in sorted([m.end() + c for c in cuts] + [end], reverse=True):
                text = text[:at] + cite + text[at:]
    sys.stdout.write(text)
    return 0


def main(argv):
    """`paperdefs.py bib`: the papers as BibTeX on stdout.
    `paperdefs.py filter FILE`: a Doxygen input filter that replaces each
    line `<!-- paper.def: WHAT -->` (papers, chapters, errata) by what the
    papers' paper.def say, and each `<!-- generated: NAME -->` by the file
    NAME the build wrote into $CL_GEN."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if len(argv) == 2 and argv[1] == "bib":
        sys.stdout.write(bibtex(read(root)))
        return 0
    if len(argv) == 3 and argv[1] == "chapter":
        return chapter_filter(root, argv[2])
    if len(argv) != 3 or argv[1] != "filter":
        sys.stderr.write("usage: tools/paperdefs.py bib | filter FILE | chapter FILE\n")
        return 2
    with open(argv[2], encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"^<!-- paper\.def: (\w+) -->$", lambda m: generated(root, m.group(1)), text, flags=re.M)
    text = re.sub(r"^<!-- generated: ([\w.]+) -->$", lambda m: generated_file(m.group(1)), text, flags=re.M)
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
