#!/bin/sh
# The documentation tools: equation coverage (tools/eqcoverage), the errata
# page filter (tools/doxyhelp errata) and the ladder CSV (tools/ladder-csv).
# Expected values come from the papers' own numbering and from small inputs
# written here, never from the tools' output.
. tests/tap.sh
echo "1..15"
if ! command -v python3 >/dev/null 2>&1; then
    for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15; do skip "python3 not installed"; done
    exit 0
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/cl-docs-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

papers=${CL_PAPERS:-}
for d in "$papers" ../shared/papers /work/shared/papers; do
    [ -n "$d" ] && [ -f "$d/two-spheres.txt" ] && { papers=$d; break; }
done

# 1-4: the numbered equations of each paper. S2 numbers (1)-(53), two of them
# lost in the extracted text; EMB (2.1)-(2.10) and (3.1)-(3.8); SKATE (1)-(59)
# with 17a-b, 25a-b, 35a-b, 44a-c, 47a-b, 51a-c (59 - 6 + 14 = 67 entries);
# NFOLD (1)-(9).
if [ -f "$papers/two-spheres.txt" ]; then
    mkdir -p "$tmp/empty"
    tools/eqcoverage --papers "$papers" --root "$tmp/empty" --summary > "$tmp/summary" 2>&1
    grep -q '^S2  *53 equations' "$tmp/summary"; t $? "S2 has 53 numbered equations"
    grep -q '^EMB  *18 equations' "$tmp/summary"; t $? "EMB has 18 numbered equations"
    grep -q '^SKATE  *67 equations' "$tmp/summary"; t $? "SKATE has 67 numbered equations and parts"
    grep -q '^NFOLD  *9 equations' "$tmp/summary"; t $? "NFOLD has 9 numbered equations"
else
    for i in 1 2 3 4; do skip "paper texts not found (CL_PAPERS)"; done
fi

# 5-8: tags. A range covers every number in it, a number without a letter
# covers its lettered parts, a \page block's story does not count as an
# implementation, a test's tag counts as coverage, an unknown number is named.
if [ -f "$papers/two-spheres.txt" ]; then
    mkdir -p "$tmp/tree/papers/x" "$tmp/tree/tests" "$tmp/tree/docs"
    cat > "$tmp/tree/papers/x/x.c" <<'EOF'
/**
 * \page ch_x A story citing [S2 (1)]
 */
/** The hat-map identities [S2 (43)–(48)] and [SKATE (17)]; [S2 (99)] */
int f(void) { return 0; }
EOF
    printf '/* expected from [S2 (44)] */\n' > "$tmp/tree/tests/test_x.c"
    tools/eqcoverage --papers "$papers" --root "$tmp/tree" > "$tmp/table" 2> "$tmp/err"
    grep -q '^S2  *(45) .* implemented$' "$tmp/table" && grep -q '^S2  *(48) .* implemented$' "$tmp/table"
    t $? "[S2 (43)–(48)] marks (45) and (48) implemented"
    grep -q '^S2  *(44) .*test_x .*covered$' "$tmp/table"; t $? "a test's [S2 (44)] makes (44) covered"
    grep -q '^SKATE (17a) .* implemented$' "$tmp/table" && grep -q '^SKATE (17b) .* implemented$' "$tmp/table"
    t $? "[SKATE (17)] covers (17a) and (17b)"
    grep -q '^S2  *(1) .* missing$' "$tmp/table" && grep -q 'x.c:4: \[S2 (99)\] is not an equation' "$tmp/err"
    t $? "a \\page story is not an implementation; an unknown number is reported"
else
    for i in 5 6 7 8; do skip "paper texts not found (CL_PAPERS)"; done
fi

# 9-10: errata files become the page errata_KEY.
printf 'Intro.\n\n## (1) x\n' > "$tmp/errata_EMB.md"
tools/doxyhelp errata "$tmp/errata_EMB.md" > "$tmp/out"
head -n 1 "$tmp/out" | grep -q '^# Errata of EMB (embedded manifold) {#errata_EMB}$' &&
    sed -n 2p "$tmp/out" | grep -q '\\anchor errata_emb \\anchor errata_EMB_page'
t $? "a file without a title gets the page title, label and its aliases"
printf 'My title {#errata_s2}\n========\n\nText.\n' > "$tmp/errata_S2.md"
tools/doxyhelp errata "$tmp/errata_S2.md" > "$tmp/out"
[ "$(wc -l < "$tmp/out")" -eq "$(wc -l < "$tmp/errata_S2.md")" ] &&
    head -n 1 "$tmp/out" | grep -q '^# My title {#errata_S2}$' &&
    sed -n 3p "$tmp/out" | grep -q '^\\anchor errata_s2 \\anchor errata_S2_page$' &&
    ! grep -q 'anchor errata_s2 .*anchor errata_s2' "$tmp/out"
t $? "a titled file keeps its title and line count; its own label stays an anchor, once"

# 11-12: ladder CSV. Exact rungs have no finite log2 and are left out.
cat > "$tmp/o.json" <<'EOF'
{"schema": "chartless-oracle/1", "bits": [53, 113], "passed": 2, "failed": 0, "checks": [
 {"name": "s2.a.b", "rungs": [{"bits": 53, "log2_err": -50, "log2_tol": -48, "status": "ok"},
                              {"bits": 113, "log2_err": null, "log2_tol": -108, "status": "ok"}]},
 {"name": "core.c", "rungs": [{"bits": 53, "log2_err": -52, "log2_tol": -51, "status": "ok"},
                              {"bits": 113, "log2_err": -112, "log2_tol": -111, "status": "ok"}]}]}
EOF
tools/ladder-csv < "$tmp/o.json" > "$tmp/l.csv"
head -n 1 "$tmp/l.csv" | grep -q '^# groups: s2 core$'; t $? "groups in order of appearance"
[ "$(grep -c '^[0-9]' "$tmp/l.csv")" = 3 ] && grep -q '^113,-112,-111,2$' "$tmp/l.csv"
t $? "one line per finite rung, with its group"

# 13: README's chapter table names, for each paper, its folder and every
# section of its paper.def (the docs' chapter map is made from the same list).
missing=""
for def in papers/*/paper.def; do
    dir=$(dirname "$def")
    row=$(grep "^| \`$(sed -n 's/^key[[:space:]]*//p' "$def")\`" README.md | grep "$dir/")
    [ -n "$row" ] || { missing="$missing $dir(no row)"; continue; }
    for sec in $(sed -n 's/^sections[[:space:]]*//p' "$def"); do
        printf '%s\n' "$row" | grep -q "\`$sec\`" || missing="$missing $sec"
    done
done
[ -z "$missing" ]; t $? "README's chapter table lists every paper's folder and sections${missing:+ (missing:$missing)}"

# 14: the bibliography Doxygen cites from: one BibTeX entry per paper.def,
# keyed by the paper's key, with its title and (where it has one) its arXiv link.
tools/paperdefs.py bib > "$tmp/p.bib"
bad=""
for def in papers/*/paper.def; do
    key=$(sed -n 's/^key[[:space:]]*//p' "$def"); title=$(sed -n 's/^title[[:space:]]*//p' "$def")
    arx=$(sed -n 's/^link[[:space:]]*arXiv:\([^ ]*\).*/\1/p' "$def")
    entry=$(awk -v k="@misc{$key," '$0 == k {p = 1} p {print} p && /^}/ {exit}' "$tmp/p.bib")
    printf '%s\n' "$entry" | grep -qF "title = {{$title}}" || bad="$bad $key(title)"
    [ -z "$arx" ] || printf '%s\n' "$entry" | grep -qF "https://arxiv.org/abs/$arx" || bad="$bad $key(arXiv)"
done
[ "$(grep -c '^@misc{' "$tmp/p.bib")" = "$(ls papers/*/paper.def | wc -l)" ] && [ -z "$bad" ]
t $? "tools/paperdefs.py bib: one entry per paper, its title and arXiv link${bad:+ (wrong:$bad)}"

# 15: the chapter filter ends each chapter page with its paper's citation
# and keeps the line count (Doxygen's line numbers are the file's).
printf '/** \\page ch_x A\n * text\n * \\page ch_y B\n * more\n */\nint f(void);\n' > "$tmp/x.c"
mkdir -p "$tmp/papers/skate" && cp "$tmp/x.c" "$tmp/papers/skate/x.c"
out=$(cd "$tmp" && python3 "$OLDPWD/tools/paperdefs.py" chapter papers/skate/x.c)
[ "$(printf '%s\n' "$out" | wc -l)" = 6 ] && [ "$(printf '%s\n' "$out" | grep -c 'From \\cite SKATE')" = 2 ]
t $? "chapter filter: each page of a comment cites its paper, no line added"
