# chartless — GNU make, no autotools.
#   make            library (static and shared) and the chartless command
#   make check      TAP tests under prove (every registered check included)
#   make check-long the full ladder where make check runs two rungs (tests/test_model_oracle.sh)
#   make check-sanitize  the same under ASan and UBSan
#   make oracle     the full oracle report on the precision ladder
#   make docs       Doxygen HTML (formulas by the local MathJax)
#   make bench      benchmarks against the alternatives
#   make mutants    mutation testing of the oracle (tools/mutants)
#   make install    PREFIX=/usr/local DESTDIR=
#
# Layout and layering (each folder sees only the folders below it; the
# include paths below are the only ones a folder's sources get):
#   src/             the core                        sees src/
#   check/           the check kit                   sees src/, check/
#   system/          the system descriptor, registry, parameters, exit statuses  sees src/, check/, system/
#   model/ROOM/      the model language in rooms (MODEL_ROOMS)  sees src/, check/, system/ and model/ (MODEL_I)
#   papers/KEY/      one paper (paper.def)           sees src/, check/, system/, model/, itself and the papers it `needs`
#   cli/             the chartless command: its commands and shared helpers  sees the public headers (as installed), cli/grade, cli/sweep, cli/sim
#   cli/grade/       grading: sandbox, reports, student values, fields   sees the public headers, cli/
#   cli/sweep/       sweeps: the generic map, merging shards, the plot   sees the public headers, cli/
#   cli/sim/         simulate's drivers (ode, lie, graph) and plots      sees the public headers, cli/
#   tests/           unit tests of src/, check/, system/, model/  sees them
#   bench/           benchmarks                      sees the public headers, and tests/ for shared fixtures
#
# Instantiation: a templated source is compiled once per scalar kind, with
# -DCL_PREC=CL_DOUBLE (symbols *_d) and -DCL_PREC=CL_MPFR (*_mp). Which
# sources are templated is said here and in each paper.def, never guessed:
#   src/: SRC_T below; check/: CHECK_T below; model/: MODEL_T and MODEL_C (its registered checks) below;
#   papers/KEY/: its paper.def `sections`, its check_*.c and test_*.c;
#   papers/KEY/*_systems.c are compiled once, for MPFR (the command line's kind).
# The third kind, Arb balls (-DCL_PREC=CL_ARB, *_arb), is compiled only for
# the sources that certified verdicts need: SRC_ARB below, a paper.def's
# `arb` sections, and tests/test_arb*.c (ball tests, *_arb programs). Their
# headers define CL_TEMPLATE_ARB. Checks stay double/MPFR templated and call
# the _arb routines by name.
# The fourth, the tracing kind (-DCL_PREC=CL_TRACE, *_tr; src/trace.h), runs a
# templated field once to write it into an expression graph (the Taylor
# integrator's input); compiled for SRC_TRACE below and a paper.def's `trace`
# sections, whose headers define CL_TEMPLATE_TRACE.

CC      ?= cc
CFLAGS  ?= -O2 -g
WARN    := -std=gnu11 -Wall -Wextra -Wno-unused-parameter
LDLIBS  := -lflint-arb -lflint -lmpfr -lgmp -lm
PREFIX  ?= /usr/local
B       := build
VERSION := 0.1.0

# ------------------------------------------------------------------ sources
SRC_T   := scalar r3 linalg linalg_inertia linalg_francis deriv ode ode_drive ode_methods taylor taylor_coef taylor_drive lie energy_casimir expr_eval lagr_core lagr_s2 lagr_so3 lagr_flat lagr_prod lagr_prod_kinds
SRC_T   += ham_prod
SRC_T   += lagr_prod_state
SRC_T   += lagr_prod_dist
SRC_1   := core expr expr_text expr_diff
SRC_1   += expr_parse
SRC_1   += expr_emit expr_jit
SRC_1   += expr_simplify expr_simplify_emit expr_share
SRC_ARB := scalar r3 linalg linalg_inertia linalg_eig_arb energy_casimir taylor taylor_coef enclose expr_eval
SRC_1   += trace
SRC_TRACE := scalar r3 linalg
CHECK_T := check_core check_linalg check_ode check_lie
CHECK_T += check_taylor check_expr_fd check_expr_print
CHECK_1 := verdict check_registry
SYSTEM_1 := registry output equilibria
# model/ by room (model/ROOM/FILE), each room including only the rooms below it (MODEL_SEES)
MODEL_T := rows/model_rows rows/model_rows_kit rows/model_rows_s2 rows/model_rows_eq rows/model_rows_ext rows/model_rows_constraint
MODEL_T += derive/model_taylor
MODEL_T += kinds/model_s2_eq
MODEL_T += rows/model_rows_el rows/model_rows_ec rows/model_rows_certify
MODEL_T += rows/model_rows_simplify rows/model_rows_graph
MODEL_T += rows/model_rows_enclose
MODEL_T += load/model_draw
MODEL_C := rows/check_model_engine
MODEL_1 := lang/model lang/model_text lang/model_base
MODEL_1 += kinds/model_so3 kinds/model_flat kinds/model_prod kinds/model_constraint kinds/model_ham kinds/model_s2 kinds/model_kinds
MODEL_1 += derive/model_graph derive/model_graph_kin derive/model_graph_lagr derive/model_graph_ham
MODEL_1 += field/field field/field_compiled field/field_layout
MODEL_1 += load/model_ext load/model_load
MODEL_1 += certify/model_ball certify/model_certify certify/model_certify_ec

# paper.def field $(2) of paper $(1)
def = $(strip $(shell sed -n 's/^$(2)[[:space:]]*//p' papers/$(1)/paper.def))
PAPERS := $(patsubst papers/%/paper.def,%,$(wildcard papers/*/paper.def))
paper_sections = $(addprefix papers/$(1)/,$(call def,$(1),sections))
paper_arb      = $(addprefix papers/$(1)/,$(call def,$(1),arb))
paper_trace    = $(addprefix papers/$(1)/,$(call def,$(1),trace))
paper_checks   = $(basename $(wildcard papers/$(1)/check_*.c))
paper_systems  = $(basename $(wildcard papers/$(1)/*_systems.c))
paper_tests    = $(basename $(wildcard papers/$(1)/test_*.c))

both = $(foreach f,$(1),$(B)/$(f)_d.o $(B)/$(f)_mp.o)
ball = $(foreach f,$(1),$(B)/$(f)_arb.o)
traced = $(foreach f,$(1),$(B)/$(f)_tr.o)
one  = $(foreach f,$(1),$(B)/$(f).o)

LIB_OBJ := $(call both,$(addprefix src/,$(SRC_T))) $(call one,$(addprefix src/,$(SRC_1))) \
           $(call one,$(addprefix check/,$(CHECK_1))) $(call one,$(addprefix system/,$(SYSTEM_1))) \
           $(call one,$(addprefix model/,$(MODEL_1))) $(call both,$(addprefix model/,$(MODEL_T))) \
           $(foreach p,$(PAPERS),$(call both,$(call paper_sections,$(p)))) \
           $(call ball,$(addprefix src/,$(SRC_ARB))) $(foreach p,$(PAPERS),$(call ball,$(call paper_arb,$(p)))) \
           $(call traced,$(addprefix src/,$(SRC_TRACE))) $(foreach p,$(PAPERS),$(call traced,$(call paper_trace,$(p)))) \
           $(B)/gen/models_embedded.o
# Registered by constructors: linked whole into the command and the check runner.
REG_OBJ := $(call both,$(addprefix check/,$(CHECK_T))) $(call both,$(addprefix model/,$(MODEL_C))) \
           $(foreach p,$(PAPERS),$(call both,$(call paper_checks,$(p))) $(call one,$(call paper_systems,$(p))))
CLI_OBJ := $(call one,$(basename $(wildcard cli/*.c cli/*/*.c)))
PY_LIB  := $(B)/libchartless_python.so

UNIT_TESTS  := $(filter-out tests/test_arb%,$(basename $(wildcard tests/test_*.c)))
ARB_TESTS   := $(basename $(wildcard tests/test_arb*.c))
# Unit tests compiled once (MPFR, or the public header alone); the others once per kind.
ONE_TESTS   := tests/test_public_header tests/test_check_budget tests/test_certified_balls tests/test_cli_s2 tests/test_checks tests/test_equilibria_kit tests/test_ladder tests/test_model_prod tests/test_model_eom tests/test_model_ham
ONE_TESTS   += tests/test_compiled tests/test_field_cache
ONE_TESTS   += tests/test_expr_simplify
TEMPL_TESTS := $(filter-out $(ONE_TESTS),$(UNIT_TESTS)) \
               $(foreach p,$(PAPERS),$(call paper_tests,$(p)))
TESTS := $(foreach t,$(TEMPL_TESTS),$(B)/$(t)_d $(B)/$(t)_mp) \
         $(foreach t,$(ARB_TESTS),$(B)/$(t)_arb) $(addprefix $(B)/,$(ONE_TESTS))
SH_TESTS := $(wildcard tests/test_*.sh)
BENCHES  := $(patsubst %.c,$(B)/%,$(wildcard bench/bench_*.c))

# Public headers, installed and staged in $(B)/include/chartless as installed:
# everything in src/, check.h, system.h, model.h and field.h of the kit, and each paper's
# headers, but the internal *_impl.h of src/ and of the papers (MPFR's mpfr.h / mpfr-impl.h split).
# Installed flat: a header's name is unique across the rooms.
PUBLIC_H := $(filter-out %_impl.h,$(wildcard src/*.h)) check/check.h system/system.h model/model.h model/field/field.h \
            model/lang/model_lang.h model/derive/model_eom.h model/load/model_system.h model/rows/model_rows.h \
            model/rows/model_rows_decl.h \
            $(filter-out %_impl.h,$(foreach p,$(PAPERS),$(wildcard papers/$(p)/*.h)))
PUBLIC_H += model/derive/model_taylor.h model/derive/model_taylor_decl.h model/certify/model_ball.h
INC := $(B)/include/chartless

# ----------------------------------------------------------- include paths
$(B)/src/%:    LAYER := -Isrc
$(B)/check/%:  LAYER := -Isrc -Icheck
$(B)/system/%: LAYER := -Isrc -Icheck -Isystem
# The rooms of model/, from the bottom up: each sees itself and the rooms
# before it (docs/house.md); model/model.h, the public header naming them
# all, is for the folders above model/.
MODEL_ROOMS := lang kinds derive field load certify rows
MODEL_I     := -Imodel $(addprefix -Imodel/,$(MODEL_ROOMS))
model_below  = $(if $(filter $(1),$(firstword $(2))),$(1),$(firstword $(2)) $(call model_below,$(1),$(wordlist 2,99,$(2))))
$(foreach r,$(MODEL_ROOMS),$(eval $(B)/model/$(r)/%: LAYER := -Isrc -Icheck -Isystem $(addprefix -Imodel/,$(call model_below,$(r),$(MODEL_ROOMS)))))
$(B)/tests/%:  LAYER := -Isrc -Icheck -Isystem $(MODEL_I)
$(B)/cli/%:    LAYER := -I$(INC) -Icli -Icli/grade -Icli/sweep -Icli/sim
$(B)/cli/grade/%: LAYER := -I$(INC) -Icli
$(B)/cli/sweep/%: LAYER := -I$(INC) -Icli
$(B)/cli/sim/%:   LAYER := -I$(INC) -Icli
$(B)/python/%: LAYER := -I$(INC) -Icli
$(B)/tests/test_public_header.o: LAYER := -I$(INC) -Icheck
$(B)/bench/%:  LAYER := -I$(INC) -Itests
$(foreach p,$(PAPERS),$(eval $(B)/papers/$(p)/%: LAYER := -Isrc -Icheck -Isystem $(MODEL_I) -Ipapers/$(p) $(addprefix -Ipapers/,$(call def,$(p),needs))))

NEED_BUILD := header:mpfr.h:libmpfr-dev header:gmp.h:libgmp-dev header:arb.h:libflint-arb-dev cmd:python3:python3
# The tests of --plot draw with gnuplot; tests/test_slurm.sh starts a Slurm of its own (slurm-wlm, munge).
NEED_CHECK := cmd:prove:perl cmd:pkg-config:pkg-config cmd:python3:python3 cmd:parallel:parallel cmd:bc:bc \
              cmd:gnuplot:gnuplot-nox file:/usr/sbin/slurmctld:slurm-wlm file:/usr/sbin/munged:munge
NEED_DOCS  := cmd:doxygen:doxygen cmd:bibtex:texlive-binaries file:/usr/share/javascript/mathjax/MathJax.js:libjs-mathjax
NEED_PLOT  := cmd:gnuplot:gnuplot-nox
# The Python package's tests (tests/test_python.sh runs pytest on python/tests with Debian's python3)
# and the notebooks (tests/test_notebooks.sh executes notebooks/*.ipynb headless);
# simulate() gives a pandas DataFrame, chartless.plot draws with matplotlib
# and writes MP4 animations through ffmpeg.
PY_DIST    := /usr/lib/python3/dist-packages
NEED_PY    := file:$(PY_DIST)/numpy/__init__.py:python3-numpy file:$(PY_DIST)/pytest/__init__.py:python3-pytest \
              file:$(PY_DIST)/mpmath/__init__.py:python3-mpmath file:$(PY_DIST)/pip/__init__.py:python3-pip \
              file:$(PY_DIST)/wheel/__init__.py:python3-wheel cmd:jupyter-nbconvert:jupyter-nbconvert \
              file:$(PY_DIST)/ipykernel/__init__.py:python3-ipykernel \
              file:$(PY_DIST)/pandas/__init__.py:python3-pandas \
              file:$(PY_DIST)/matplotlib/__init__.py:python3-matplotlib cmd:ffmpeg:ffmpeg
# Debian's python3 (a python3 earlier on PATH may not see Debian's packages), and
# where it finds packages for PREFIX (/usr/local/lib/python3.11/dist-packages).
PYTHON     ?= $(shell test -x /usr/bin/python3 && echo /usr/bin/python3 || echo python3)
PYSITE      = $(PREFIX)/lib/python$(shell $(PYTHON) -c 'import sys; print("%d.%d" % sys.version_info[:2])')/dist-packages

.SECONDARY:
.PHONY: all check check-build check-long oracle docs bench install uninstall clean deps figures mutants check-sanitize headers fuzz
all: $(B)/libchartless.a $(B)/libchartless.so $(B)/chartless $(PY_LIB)

deps:
	@CC="$(CC)" tools/need $(NEED_BUILD)

COMPILE = $(CC) $(LAYER) $(CPPFLAGS) $(WARN) $(CFLAGS) -fPIC -MMD -MP
$(B)/%_d.o: %.c | deps
	@mkdir -p $(@D)
	$(COMPILE) -DCL_PREC=CL_DOUBLE -c $< -o $@
$(B)/%_mp.o: %.c | deps
	@mkdir -p $(@D)
	$(COMPILE) -DCL_PREC=CL_MPFR -c $< -o $@
# Ball temporaries are cleared by GCC's cleanup attribute: a goto past one would clear garbage.
$(B)/%_arb.o: %.c | deps
	@mkdir -p $(@D)
	$(COMPILE) -Wjump-misses-init -DCL_PREC=CL_ARB -c $< -o $@
$(B)/%_tr.o: %.c | deps
	@mkdir -p $(@D)
	$(COMPILE) -DCL_PREC=CL_TRACE -c $< -o $@
$(B)/%_systems.o: %_systems.c | deps
	@mkdir -p $(@D)
	$(COMPILE) -DCL_PREC=CL_MPFR -c $< -o $@
$(B)/%.o: %.c | deps
	@mkdir -p $(@D)
	$(COMPILE) -c $< -o $@
# The shipped models/*.model, embedded in the library as string literals
# (cl_model_shipped_text): the oracle's model rows run from any folder.
$(B)/gen/models_embedded.c: $(wildcard models/*.model) tools/embed-models
	@mkdir -p $(@D)
	tools/embed-models $(sort $(wildcard models/*.model)) > $@.tmp && mv $@.tmp $@
$(B)/gen/models_embedded.o: $(B)/gen/models_embedded.c
	$(CC) $(WARN) $(CFLAGS) -fPIC -c $< -o $@
$(CLI_OBJ) $(B)/python/capi.o $(patsubst %,%.o,$(BENCHES)) $(B)/tests/test_public_header.o: $(INC)/chartless.h | deps

# The public headers as installed, the umbrella chartless.h generated from
# the papers' paper.def, and prototypes_d.h / prototypes_mp.h: every public
# routine of one kind written out, one per line, for grep.
headers: $(INC)/chartless.h
$(INC)/chartless.h: $(PUBLIC_H) $(wildcard papers/*/paper.def) tools/kind-headers Makefile
	@rm -rf $(INC) && mkdir -p $(INC)
	@cp $(PUBLIC_H) $(INC)/
	@# printf '%s\n', not echo: dash's echo reads \f and \b of \file and \brief as control characters.
	@{ printf '%s\n' '/** \file chartless.h' \
	   ' * \brief Everything public in libchartless: the core, the check kit and' \
	   ' *        every paper. Generated by the Makefile from each paper.def. */' \
	   '#ifndef CHARTLESS_H' '#define CHARTLESS_H' \
	   '#include "chartless_base.h"' '#include "check.h"' '#include "system.h"' '#include "model.h"' '#include "model_ball.h"' '#include "field.h"' \
	   $(foreach p,$(PAPERS),'#include "$(call def,$(p),header)" /* [$(call def,$(p),key)] $(call def,$(p),short) */') \
	   '#endif'; } > $@.tmp
	@tools/kind-headers $(INC) && mv $@.tmp $@

$(B)/libchartless.a: $(LIB_OBJ)
	rm -f $@ && ar rcs $@ $^
$(B)/libchartless.so: $(LIB_OBJ)
	$(CC) -shared -Wl,-soname,libchartless.so.0 -o $@ $^ $(LDLIBS)
$(B)/chartless: $(CLI_OBJ) $(REG_OBJ) $(B)/libchartless.a
	$(CC) $(CFLAGS) -rdynamic -o $@ $(CLI_OBJ) $(REG_OBJ) $(B)/libchartless.a $(LDLIBS) -ldl

# The Python package's entry points (python/capi.c) with the registered
# systems and the command line's parsing of options and states.
PY_CLI := $(filter-out $(B)/cli/main.o,$(CLI_OBJ))
$(PY_LIB): $(B)/python/capi.o $(PY_CLI) $(REG_OBJ) $(B)/libchartless.a
	$(CC) -shared -Wl,--no-undefined -o $@ $(B)/python/capi.o $(PY_CLI) $(REG_OBJ) $(B)/libchartless.a $(LDLIBS) -ldl

$(B)/%_d: $(B)/%_d.o $(B)/libchartless.a
	$(CC) $(CFLAGS) -o $@ $< $(B)/libchartless.a $(LDLIBS)
$(B)/%_mp: $(B)/%_mp.o $(B)/libchartless.a
	$(CC) $(CFLAGS) -o $@ $< $(B)/libchartless.a $(LDLIBS)
$(B)/%_arb: $(B)/%_arb.o $(B)/libchartless.a
	$(CC) $(CFLAGS) -o $@ $< $(B)/libchartless.a $(LDLIBS)
$(B)/tests/test_checks: $(B)/tests/test_checks.o $(REG_OBJ) $(B)/libchartless.a
	$(CC) $(CFLAGS) -o $@ $< $(REG_OBJ) $(B)/libchartless.a $(LDLIBS)
$(B)/tests/test_equilibria_kit: $(B)/tests/test_equilibria_kit.o $(REG_OBJ) $(B)/libchartless.a
	$(CC) $(CFLAGS) -o $@ $< $(REG_OBJ) $(B)/libchartless.a $(LDLIBS)
$(B)/tests/test_certified_balls: $(B)/tests/test_certified_balls.o $(REG_OBJ) $(B)/libchartless.a
	$(CC) $(CFLAGS) -o $@ $< $(REG_OBJ) $(B)/libchartless.a $(LDLIBS)
$(B)/tests/%: $(B)/tests/%.o $(B)/libchartless.a
	$(CC) $(CFLAGS) -o $@ $< $(B)/libchartless.a $(LDLIBS)
# Every benchmark runs in the one harness, bench/bench.c.
$(B)/bench/%: $(B)/bench/%.o $(B)/bench/bench.o $(B)/libchartless.a
	$(CC) $(CFLAGS) -o $@ $< $(B)/bench/bench.o $(B)/libchartless.a $(LDLIBS)

# make check builds with every core (CI calls it without -j; a -j given is kept), then runs
# the tests two at a time, the longest first (CHECK_FIRST, longest first, measured in CPU
# seconds on a quiet machine): with -j 2 a long test started last would end the run alone.
# The tests' python3 (and #!/usr/bin/env python3) is $(PYTHON), Debian's, through $(B)/check-path:
# a python3 earlier on PATH may lack Debian's packages, and a pyenv shim costs 0.7 s of CPU a start.
CHECK_FIRST := tests/test_model_oracle.sh tests/test_notebooks.sh tests/test_python.sh tests/test_model.sh \
               tests/test_install.sh tests/test_every_command.sh tests/test_hostile_catalogue.sh tests/test_eom.sh \
               tests/test_simulate.sh $(B)/tests/test_checks tests/test_sweep.sh tests/test_hostile_grade.sh
CHECK_ALL    = $(TESTS) $(SH_TESTS)
# more options of prove (--timer, --exec CMD to time each test) for make check
PROVE_ARGS  ?=
check:
	$(MAKE) $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$$(nproc 2>/dev/null || echo 2)) check-build
	@tools/need $(NEED_CHECK) $(NEED_PY)
	@rm -rf $(B)/check-path && mkdir -p $(B)/check-path $(if $(filter /%,$(PYTHON)),&& ln -s $(PYTHON) $(B)/check-path/python3)
	PATH="$(CURDIR)/$(B)/check-path:$$PATH" BUILD=$(B) CC="$(CC) $(CFLAGS)" PYTHON=$(PYTHON) CHARTLESS_CACHE=$(abspath $(B))/cache \
	    prove -j 2 -f $(PROVE_ARGS) $(filter $(CHECK_ALL),$(CHECK_FIRST)) $(filter-out $(CHECK_FIRST),$(CHECK_ALL))
check-build: all $(TESTS) $(BENCHES)

# What make check leaves out for time: the full rows of every shipped model on
# the whole ladder (make check runs them at 53 and 113 bits, their short versions
# on the whole ladder).
check-long: all
	@tools/need $(NEED_CHECK)
	CHARTLESS_CHECK_LONG=1 BUILD=$(B) PYTHON=$(PYTHON) prove tests/test_model_oracle.sh

# The tests again under AddressSanitizer and UndefinedBehaviorSanitizer.
check-sanitize:
	$(MAKE) B=build-san CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" check
	$(MAKE) fuzz FUZZ_SECONDS=10

# libFuzzer targets (fuzz/): the state reader, the argument scanner with the
# parameter parser, the model parser and the field-file parser; each runs FUZZ_SECONDS on its corpus
# (kept in $(B)/fuzz).
FUZZ_SECONDS ?= 60
FUZZ_CC ?= clang
FUZZ_FLAGS = -std=gnu11 -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined -I$(INC) -Icli
# The model parser, compiled again with the fuzzer's instrumentation.
FUZZ_MODEL_SRC = $(addprefix model/,$(addsuffix .c,$(MODEL_1))) src/expr.c src/expr_parse.c
fuzz: $(B)/libchartless.a $(INC)/chartless.h
	@command -v $(FUZZ_CC) >/dev/null || tools/need cmd:clang:clang
	@mkdir -p $(B)/fuzz/corpus-state $(B)/fuzz/corpus-params $(B)/fuzz/corpus-model $(B)/fuzz/corpus-field
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $(B)/fuzz/fuzz_state fuzz/fuzz_state.c cli/cliutil.c system/registry.c $(B)/libchartless.a $(LDLIBS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $(B)/fuzz/fuzz_params fuzz/fuzz_params.c cli/cmd_system.c cli/cliutil.c system/registry.c $(B)/libchartless.a $(LDLIBS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Isrc -Icheck -Isystem $(MODEL_I) -o $(B)/fuzz/fuzz_model fuzz/fuzz_model.c $(FUZZ_MODEL_SRC) $(B)/libchartless.a $(LDLIBS)
	$(FUZZ_CC) $(FUZZ_FLAGS) -Isrc -Icheck -Isystem $(MODEL_I) -o $(B)/fuzz/fuzz_field fuzz/fuzz_field.c $(FUZZ_MODEL_SRC) $(B)/libchartless.a $(LDLIBS)
	for t in state params model field; do \
	    $(B)/fuzz/fuzz_$$t -max_total_time=$(FUZZ_SECONDS) -close_fd_mask=2 -print_final_stats=1 \
	        $$(test -f fuzz/$$t.dict && echo -dict=fuzz/$$t.dict) \
	        $(B)/fuzz/corpus-$$t fuzz/seeds-$$t || exit 1; done

# The build and the checks use every core (the build keeps make's -j when given).
oracle:
	$(MAKE) $(if $(findstring jobserver,$(MAKEFLAGS)),,-j$$(nproc 2>/dev/null || echo 2)) all
	$(B)/chartless oracle -j $$(nproc 2>/dev/null || echo 2)

# Mutation testing of the oracle: inject derivation mistakes into the chapters.
mutants: all
	@tools/need cmd:python3:python3
	tools/mutants $(MUTANTS_ARGS)

# bench_simulate starts the command itself (whole-process times beside its peer's).
bench: all $(BENCHES)
	@for b in $(BENCHES); do echo "== $$b"; CHARTLESS=$(B)/chartless CHARTLESS_MODELS=models $$b || exit 1; done

# Reference pages: docs/*.md, the chapter pages and the sources through
# Doxygen (zero warnings), formulas by a copy of Debian's MathJax 2.7; the
# figures they show are drawn first. The Python package's docstrings and the
# notebooks (executed again, against this build) become pages too.
PY_ENV = CHARTLESS_LIBRARY=$(abspath $(PY_LIB)) CHARTLESS=$(abspath $(B)/chartless) PYTHONPATH=$(CURDIR)/python CHARTLESS_ROOT=$(CURDIR)
.PHONY: eqcoverage check-docs
docs: figures
	@tools/need $(NEED_DOCS) $(NEED_PY) cmd:python3:python3
	@rm -rf $(B)/docs && mkdir -p $(B)/docs $(B)/gen $(B)/figures
	@tools/paperdefs.py bib > $(B)/gen/papers.bib
	@tools/eqcoverage --summary --md $(B)/gen/eqcoverage.md > $(B)/docs/eqcoverage.txt 2>&1 || cat $(B)/docs/eqcoverage.txt
	@rm -rf $(B)/gen/python && mkdir -p $(B)/gen/python
	$(PYTHON) tools/python-api-page > $(B)/gen/python/python_api.md
	$(PY_ENV) $(PYTHON) tools/notebook-pages --out $(B)/gen/python --images $(B)/figures notebooks/*.ipynb 2> $(B)/docs/notebooks.log \
	    || { cat $(B)/docs/notebooks.log; exit 1; }
	@rm -rf $(B)/gen/models && tools/model-pages --chartless $(B)/chartless --out $(B)/gen/models models/*.model
	CL_DOC_INPUT="src check system model $(addprefix model/,$(MODEL_ROOMS)) $(addprefix papers/,$(PAPERS)) $(B)/gen/python $(B)/gen/models" CL_GEN=$(B)/gen CL_DOC_SECTIONS="$$(tools/doxyhelp sections)" \
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

# chartless.pc for the PREFIX of this call: rewritten whenever its text
# changes, so `make install PREFIX=...` never installs another prefix's file.
# The library's directory is its run path: no LD_LIBRARY_PATH needed.
$(B)/chartless.pc: FORCE
	@mkdir -p $(@D)
	@printf 'prefix=%s\nlibdir=$${prefix}/lib\nincludedir=$${prefix}/include\n\nName: chartless\nDescription: coordinate-free Lagrangian and Hamiltonian mechanics in double and MPFR precision\nVersion: %s\nRequires: mpfr\nLibs: -L$${libdir} -Wl,-rpath,$${libdir} -lchartless -lm\nLibs.private: -lflint-arb -lflint -lmpfr -lgmp -lm\nCflags: -I$${includedir}\n' '$(PREFIX)' '$(VERSION)' > $@.tmp
	@if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
FORCE:
.PHONY: FORCE

install: all $(B)/chartless.pc
	install -d $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/include/chartless $(DESTDIR)$(PREFIX)/bin
	install -m 644 $(B)/libchartless.a $(DESTDIR)$(PREFIX)/lib/
	install -m 755 $(B)/libchartless.so $(DESTDIR)$(PREFIX)/lib/libchartless.so.$(VERSION)
	ln -sf libchartless.so.$(VERSION) $(DESTDIR)$(PREFIX)/lib/libchartless.so.0
	ln -sf libchartless.so.0 $(DESTDIR)$(PREFIX)/lib/libchartless.so
	install -m 644 $(INC)/*.h $(DESTDIR)$(PREFIX)/include/chartless/
	install -m 644 $(B)/chartless.pc $(DESTDIR)$(PREFIX)/lib/pkgconfig/
	install -m 755 $(B)/chartless $(DESTDIR)$(PREFIX)/bin/
	install -d $(DESTDIR)$(PREFIX)/share/chartless/models
	install -m 644 models/*.model $(DESTDIR)$(PREFIX)/share/chartless/models/
	install -m 755 $(PY_LIB) $(DESTDIR)$(PREFIX)/lib/
	install -d $(DESTDIR)$(PYSITE)/chartless
	install -m 644 python/chartless/*.py $(DESTDIR)$(PYSITE)/chartless/

uninstall:
	rm -rf $(DESTDIR)$(PREFIX)/include/chartless $(DESTDIR)$(PREFIX)/lib/libchartless.* $(DESTDIR)$(PREFIX)/lib/libchartless_python.so \
	       $(DESTDIR)$(PREFIX)/lib/pkgconfig/chartless.pc $(DESTDIR)$(PREFIX)/bin/chartless $(DESTDIR)$(PYSITE)/chartless \
	       $(DESTDIR)$(PREFIX)/share/chartless

clean:
	rm -rf $(B) build-san

-include $(shell find $(B) -name '*.d' 2>/dev/null)
