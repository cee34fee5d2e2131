# quizc + labrun — one build.
#
#   make            build/quizc, build/labrun
#   make demo       install missing packages (as root), build, compile the seed quiz, run labs
#   make test       install missing packages, then every test: plain, then under ASan+UBSan
#   make bench      benchmarks (build/bench/results.json)
#   make install    PREFIX=/usr/local DESTDIR=
#
# Module fragments live in mk/*.mk; each appends to the lists below.

BUILD    ?= build
PREFIX   ?= /usr/local
DESTDIR  ?=
CC       ?= cc
ifeq ($(origin CC),default)
CC       := gcc
endif
FLEX     ?= flex
BISON    ?= bison
VERSION  := 0.1.0

OPT_PLAIN := -O2
OPT      ?= $(OPT_PLAIN)
CFLAGS   ?= $(OPT) -g
WARNINGS := -Wall -Wextra -Wno-unused-parameter -Wshadow -Wstrict-prototypes -Wmissing-prototypes
CPPFLAGS += -D_GNU_SOURCE -DQZ_VERSION='"$(VERSION)"' -Igrammar -I$(BUILD)/gen -Icompiler -Iruntime
ALL_CFLAGS = -std=c11 $(WARNINGS) $(CFLAGS) $(SAN_FLAGS) $(PKG_CFLAGS)
LDLIBS   += -lm -lpthread

# SAN=1: AddressSanitizer + UndefinedBehaviorSanitizer, every finding fatal.
ifeq ($(SAN),1)
SAN_FLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
endif
LDFLAGS  += $(SAN_FLAGS)

PKG_CFLAGS := $(shell pkg-config --cflags libxml-2.0 2>/dev/null)

# The libraries, each defined once here for every fragment (pkg-config, else the plain name).
pkg_libs = $(or $(shell pkg-config --libs $(1) 2>/dev/null),$(2))
XML_LIBS  := $(call pkg_libs,libxml-2.0,-lxml2)
JSON_LIBS := $(call pkg_libs,jansson,-ljansson)
ZIP_LIBS  := $(call pkg_libs,libzip,-lzip)
ZLIB_LIBS := $(call pkg_libs,zlib,-lz)
BLAS_LIBS := $(call pkg_libs,openblas,-lopenblas)

# Lists filled in by the fragments.
LIBQZ_SRCS   :=
QUIZC_SRCS   :=
LABRUN_SRCS  :=
TEST_BINS    :=
CHECK_STEPS  :=
TEST_EXTRA   :=   # further targets `make test` runs after the suites (memcheck, tsan)

.PHONY: all demo test check check-unit deps install clean bench
all:

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

# $(call criterion_test,NAME,SOURCES,PREREQS,EXTRA_LIBS): build/tests/NAME, a Criterion binary.
define criterion_test
TEST_BINS += $$(BUILD)/tests/$(1)
$$(BUILD)/tests/$(1): $$(call obj,$(2)) $(3)
	@mkdir -p $$(@D)
	$$(CC) $$(LDFLAGS) $$^ -o $$@ -lcriterion $(4) $$(LDLIBS)
endef

# The fragments, each after the ones whose variables it reads at parse time
# (a prerequisite list or a := is expanded as the fragment is read):
include mk/grammar.mk       # LIBQZ, GEN_HEADERS: everything below links libqz
include mk/compiler.mk      # QUIZC_SRCS (the link rule reads QUIZC_SRCS late: scorm.mk adds to it)
include mk/scorm.mk         # SCORM_PKG_SRCS, from compiler.mk's emitters and the player
include mk/formats.mk       # reads SCORM_PKG_SRCS
include mk/runtime.mk       # LABRUN, RUNTIME_OBJS, RUNTIME_LIBS
include mk/labs.mk          # reads LABRUN and RUNTIME_OBJS; LAB_OBJS, LAB_TABLE_OBJ
include mk/i18n.mk          # reads LABRUN, LIBQZ_READY: labrun's message catalogues
include mk/verify.mk        # reads LAB_OBJS, LAB_TABLE_OBJ
include mk/gpu.mk           # reads LABRUN and RUNTIME_CORE_OBJS; NVCC, HAVE_NCCL, CUDA_CPPFLAGS
include mk/gpubundle.mk     # reads gpu.mk's
include mk/mpi.mk           # reads gpu.mk's NVCC, HAVE_NCCL, CUDA_CPPFLAGS
include mk/fuzz.mk          # reads every *_SRCS
include mk/bench.mk         # reads RUNTIME_OBJS, LABRUN
include mk/web.mk           # reads LAB_DIRS, LIBQZ_SRCS, LIBQZ_GEN: build/web/labs.js

$(BUILD)/obj/%.o: %.c | $(GEN_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -MMD -MP -c $< -o $@

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)

# quizc keeps formulas' MathML in the user's cache (compiler/mathcache.h):
# nothing run from here writes there.  The cache's own tests and the
# benchmark name folders of their own.
export QUIZC_CACHE := off

# Every test binary and test step; prints one closing line "N passed, N failed".
check: all $(TEST_BINS)
	@scripts/run-tests.sh $(TEST_BINS) $(CHECK_STEPS)

# The test command of the README: packages, then the suite plain and sanitized.
test: deps
	$(MAKE) check
	$(MAKE) BUILD=build/san SAN=1 OPT=-O1 check
	$(if $(TEST_EXTRA),$(MAKE) $(TEST_EXTRA))

# The main job: packages, build, compile the seed quiz, run two labs on CPU ranks.
DEMO := $(BUILD)/demo
demo: deps
	$(MAKE) all
	@mkdir -p $(DEMO)
	$(BUILD)/quizc quizzes/paralelisme.qz -o $(DEMO)/paralelisme.xml
	$(BUILD)/quizc quizzes/paralelisme.qz -o $(DEMO)/paralelisme.zip
	$(BUILD)/labrun labs/bubble --stages 4 --microbatches 8 --schedule gpipe --svg $(DEMO)/bubble.svg
	$(BUILD)/labrun labs/tensor-split --mode mlp --ranks 4
	@echo "demo: course in $(DEMO)/paralelisme.xml, SCORM package $(DEMO)/paralelisme.zip, schedule $(DEMO)/bubble.svg"

# Missing Debian packages: installed when root, otherwise the apt-get line is printed.
deps:
	@scripts/deps.sh

clean:
	rm -rf $(BUILD)
