# chartless — GNU make, no autotools.
#   make            library (static and shared) and the chartless command
#   make check      TAP tests under prove, then the quick oracle
#   make check-sanitize  the same under ASan and UBSan
#   make oracle     the full oracle report on the precision ladder
#   make docs       Doxygen HTML (formulas by the local MathJax)
#   make bench      benchmarks against the alternatives
#   make mutants    mutation testing of the oracle (tools/mutants)
#   make install    PREFIX=/usr/local DESTDIR=
# A source that uses CL_FN( is templated: it is compiled twice, once with
# -DCL_PREC=CL_DOUBLE (symbols *_d) and once with -DCL_PREC=CL_MPFR (*_mp).

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -std=gnu11 -Wall -Wextra -Wno-unused-parameter
CPPFLAGS += -Isrc -Ichapters -Ioracle -Itests
LDLIBS  := -lmpfr -lgmp -lm
PREFIX  ?= /usr/local
B       := build
VERSION := 0.1.0

LIB_SRC    := $(wildcard src/*.c chapters/*.c)
ORACLE_SRC := $(wildcard oracle/*.c)
TEST_SRC   := $(wildcard tests/test_*.c)
BENCH_SRC  := $(wildcard bench/bench_*.c)
LP := (
is_tmpl     = $(shell grep -l 'CL_FN$(LP)' $(1) /dev/null)
TMPL       := $(call is_tmpl,$(LIB_SRC) $(ORACLE_SRC) $(TEST_SRC) $(BENCH_SRC))

objs_of = $(foreach f,$(1),$(if $(filter $(f),$(TMPL)),$(B)/$(f:.c=_d.o) $(B)/$(f:.c=_mp.o),$(B)/$(f:.c=.o)))
LIB_OBJ    := $(call objs_of,$(LIB_SRC))
ORACLE_OBJ := $(call objs_of,$(ORACLE_SRC))
ORACLE_LIB_OBJ := $(filter-out $(B)/oracle/main.o,$(ORACLE_OBJ))
TESTS      := $(foreach f,$(TEST_SRC),$(if $(filter $(f),$(TMPL)),$(B)/$(f:.c=_d) $(B)/$(f:.c=_mp),$(B)/$(f:.c=)))
SH_TESTS   := $(wildcard tests/test_*.sh)
BENCHES    := $(BENCH_SRC:%.c=$(B)/%)

NEED_BUILD := header:mpfr.h:libmpfr-dev header:gmp.h:libgmp-dev
NEED_CHECK := cmd:prove:perl cmd:pkg-config:pkg-config cmd:python3:python3
NEED_DOCS  := cmd:doxygen:doxygen file:/usr/share/javascript/mathjax/MathJax.js:libjs-mathjax
NEED_PLOT  := cmd:gnuplot:gnuplot-nox

.SECONDARY:
.PHONY: all check oracle docs bench install uninstall clean deps figures mutants check-sanitize
all: $(B)/libchartless.a $(B)/libchartless.so $(B)/chartless

deps:
	@CC="$(CC)" tools/need $(NEED_BUILD)

$(B)/%_d.o: %.c | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -DCL_PREC=CL_DOUBLE $(WARN) $(CFLAGS) -fPIC -MMD -MP -c $< -o $@
$(B)/%_mp.o: %.c | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -DCL_PREC=CL_MPFR $(WARN) $(CFLAGS) -fPIC -MMD -MP -c $< -o $@
$(B)/%.o: %.c | deps
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(WARN) $(CFLAGS) -fPIC -MMD -MP -c $< -o $@

$(B)/libchartless.a: $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^
$(B)/libchartless.so: $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,libchartless.so.0 -o $@ $^ $(LDLIBS)
$(B)/chartless: $(ORACLE_OBJ) $(B)/libchartless.a
	$(CC) $(CFLAGS) -rdynamic -o $@ $(ORACLE_OBJ) $(B)/libchartless.a $(LDLIBS) -ldl
# The oracle's checks and commands as an archive, for tests that drive them.
$(B)/liboracle.a: $(ORACLE_LIB_OBJ)
	rm -f $@ && ar rcs $@ $^

$(B)/tests/%: $(B)/tests/%.o $(B)/liboracle.a $(B)/libchartless.a
	$(CC) $(CFLAGS) -o $@ $< $(B)/liboracle.a $(B)/libchartless.a $(LDLIBS) -ldl
$(B)/bench/%: $(B)/bench/%.o $(B)/libchartless.a
	$(CC) $(CFLAGS) -o $@ $< $(B)/libchartless.a $(LDLIBS)

check: all $(TESTS)
	@tools/need $(NEED_CHECK)
	BUILD=$(B) CC="$(CC) $(CFLAGS)" prove -f $(TESTS) $(SH_TESTS)
	$(B)/chartless oracle --quick -j 2

# The tests again under AddressSanitizer and UndefinedBehaviorSanitizer.
check-sanitize:
	$(MAKE) B=build-san CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" check

oracle: all
	$(B)/chartless oracle -j 2

# Mutation testing of the oracle: inject derivation mistakes into the chapters.
mutants: all
	@tools/need cmd:python3:python3
	tools/mutants $(MUTANTS_ARGS)

bench: $(BENCHES)
	@for b in $(BENCHES); do echo "== $$b"; $$b || exit 1; done

# Reference pages: docs/*.md, the chapter pages and the sources through
# Doxygen (zero warnings), formulas by a copy of Debian's MathJax 2.7.
.PHONY: eqcoverage check-docs
docs:
	@tools/need $(NEED_DOCS) cmd:python3:python3
	@rm -rf $(B)/docs && mkdir -p $(B)/docs $(B)/gen $(B)/figures
	@tools/eqcoverage --summary --md $(B)/gen/eqcoverage.md > $(B)/docs/eqcoverage.txt 2>&1 || cat $(B)/docs/eqcoverage.txt
	CL_DOC_INPUT="$(wildcard src chapters oracle) $(B)/gen" CL_DOC_SECTIONS="$$(tools/doxyhelp sections)" \
	    doxygen docs/Doxyfile 2> $(B)/docs/warnings.log
	@if [ -s $(B)/docs/warnings.log ]; then cat $(B)/docs/warnings.log; echo "doxygen warnings: fix them"; exit 1; fi
	@tools/doxyhelp mathjax $(B)/docs/html/mathjax
	@echo "docs: $(B)/docs/html/index.html"

# Every numbered equation of the papers: implemented where, covered by what.
eqcoverage:
	@tools/need cmd:python3:python3
	@mkdir -p $(B)/gen
	tools/eqcoverage --md $(B)/gen/eqcoverage.md

# The pages in headless Chromium: formulas typeset, internal links whole.
check-docs: docs
	@tools/need cmd:chromium:chromium cmd:python3:python3
	tools/check-docs $(CHECK_DOCS_ARGS) $(B)/docs/html

# Figures with gnuplot from the CSV the chartless command produces.
figures: all
	@tools/need $(NEED_PLOT) cmd:python3:python3
	@mkdir -p $(B)/figures
	$(B)/chartless oracle --quick --format json > $(B)/figures/ladder.json || [ $$? = 1 ]
	tools/ladder-csv < $(B)/figures/ladder.json > $(B)/figures/ladder.csv
	gnuplot -e "data='$(B)/figures/ladder.csv'; out='$(B)/figures/ladder.png'" docs/figures/ladder.gp
	@echo "figures: $(B)/figures/ladder.png"
	tools/figures --chartless $(B)/chartless --out $(B)/figures -j 2

$(B)/chartless.pc: Makefile
	@mkdir -p $(@D)
	printf 'prefix=%s\nlibdir=$${prefix}/lib\nincludedir=$${prefix}/include\n\nName: chartless\nDescription: coordinate-free Lagrangian and Hamiltonian mechanics in double and MPFR precision\nVersion: %s\nRequires: mpfr\nLibs: -L$${libdir} -lchartless\nLibs.private: -lmpfr -lgmp -lm\nCflags: -I$${includedir}\n' '$(PREFIX)' '$(VERSION)' > $@

install: all $(B)/chartless.pc
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/chartless $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(B)/libchartless.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(B)/libchartless.so $(DESTDIR)$(PREFIX)/lib/libchartless.so.$(VERSION)
	ln -sf libchartless.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libchartless.so.0
	ln -sf libchartless.so.0 $(DESTDIR)$(PREFIX)/lib/libchartless.so
	install -m 644 src/*.h chapters/*.h $(DESTDIR)$(PREFIX)/include/chartless/
	install -m 644 $(B)/chartless.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/
	install -m 755 $(B)/chartless $(DESTDIR)$(PREFIX)/bin/

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/include/chartless $(DESTDIR)$(PREFIX)/lib/libchartless.* \
	       $(DESTDIR)$(PREFIX)/lib/pkgconfig/chartless.pc $(DESTDIR)$(PREFIX)/bin/chartless

clean:
	rm -rf $(B) build-san

-include $(shell find $(B) -name '*.d' 2>/dev/null)
