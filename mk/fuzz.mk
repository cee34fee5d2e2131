# Robustness: fuzzing, hostile input, valgrind and ThreadSanitizer.
#
#   make fuzz FUZZ_SECONDS=N   harnesses built with clang -fsanitize=fuzzer,address,undefined,
#                              corpus seeded from tests/data, quizzes, labs (into $(BUILD)/fuzz/corpus),
#                              each harness run N seconds
#   make memcheck              valgrind over quizc on every quiz, labrun on each lab (small sizes)
#   make tsan                  the threads backend's tests under ThreadSanitizer
#   make check                 also replays every fuzz regression and seed, runs the hostile-input
#                              corpus and the XML / package safety checks
#
# The harnesses are also built with the ordinary compiler and a small replay
# driver (tests/fuzz/replay.c), so the inputs that once crashed stay tests.

FUZZ_SECONDS ?= 60
FUZZ_CC      ?= clang
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_SAN     := -fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined
# The harnesses read what quizc wrote back with libxml2 (quizc itself does not load it).
FUZZ_LIBS     = $(QUIZC_LIBS) $(XML_LIBS) $(LDLIBS)

# quizc's sources without its main(): the checks and emitters the harness drives.
FUZZ_MAIN_RE := ^(int )?main *[(]
QUIZC_MAIN_SRCS := $(shell grep -lE '$(FUZZ_MAIN_RE)' $(QUIZC_SRCS) /dev/null 2>/dev/null)
FUZZ_COMPILER_SRCS := $(filter-out $(QUIZC_MAIN_SRCS),$(QUIZC_SRCS))
# The harness needs the parser; until it is there nothing here is built.
FUZZ_READY := $(and $(wildcard grammar/quiz.y),$(wildcard grammar/load.c))

FUZZ_QUIZC_SRCS := tests/fuzz/fuzz_quizc.c tests/fuzz/sandbox.c
FUZZ_QUIZC_DEPS  = $(call obj,$(FUZZ_QUIZC_SRCS) $(FUZZ_COMPILER_SRCS)) $(LIBQZ)

# quizc's reader of recorded runs (compiler/runs.c), through the course document and player data.
FUZZ_RUNS_SRCS := tests/fuzz/fuzz_runs.c tests/fuzz/sandbox.c
FUZZ_RUNS_DEPS  = $(call obj,$(FUZZ_RUNS_SRCS) $(FUZZ_COMPILER_SRCS)) $(LIBQZ)

# labrun's sources without main(), as an archive: the harness pulls in only what it calls.
LABRUN_MAIN_SRCS := $(shell grep -lE '$(FUZZ_MAIN_RE)' $(LABRUN_SRCS) /dev/null 2>/dev/null)
FUZZ_RUNTIME_A   := $(BUILD)/fuzz-runtime.a
FUZZ_MANIFEST_SRCS := tests/fuzz/fuzz_manifest.c tests/fuzz/sandbox.c
FUZZ_MANIFEST_DEPS  = $(call obj,$(FUZZ_MANIFEST_SRCS)) $(FUZZ_RUNTIME_A) $(LIBQZ)
FUZZ_MANIFEST_READY := $(wildcard runtime/params.c)

.PHONY: fuzz fuzz-bins memcheck tsan tsan-bins
TEST_EXTRA += memcheck tsan

ifneq ($(FUZZ_READY),)

# ---- Replays and hostile input in `make check` ----------------------------

$(BUILD)/tests/replay_quizc: $(call obj,tests/fuzz/replay.c) $(FUZZ_QUIZC_DEPS)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(FUZZ_LIBS)

$(FUZZ_RUNTIME_A): $(call obj,$(filter-out $(LABRUN_MAIN_SRCS),$(LABRUN_SRCS)))
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

ifneq ($(FUZZ_MANIFEST_READY),)
$(BUILD)/tests/replay_manifest: $(call obj,tests/fuzz/replay.c) $(FUZZ_MANIFEST_DEPS)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(RUNTIME_LIBS) $(LDLIBS)

$(BUILD)/tests/fuzz-replay-manifest.sh: $(BUILD)/tests/replay_manifest mk/fuzz.mk
	@printf '#!/bin/sh\n# replay every manifest regression and seed through the harness\nexec %s tests/fuzz/regress/manifest tests/fuzz/manifest-seeds $$(find labs tests/data -name lab.qz | sort)\n' \
	    $(BUILD)/tests/replay_manifest > $@
	@chmod +x $@

CHECK_STEPS += $(BUILD)/tests/fuzz-replay-manifest.sh
check: $(BUILD)/tests/fuzz-replay-manifest.sh
endif

# Every built-in lab over its parameter space (tests/fuzz/fuzz_labs.c): the labs and their table too.
FUZZ_LABS_DEPS = $(call obj,tests/fuzz/fuzz_labs.c) $(LAB_OBJS) $(LAB_TABLE_OBJ) $(FUZZ_RUNTIME_A) $(LIBQZ)

$(BUILD)/tests/replay_labs: $(call obj,tests/fuzz/replay.c) $(FUZZ_LABS_DEPS)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(RUNTIME_LIBS) $(LDLIBS)

$(BUILD)/tests/fuzz-replay-labs.sh: $(BUILD)/tests/replay_labs mk/fuzz.mk
	@printf '#!/bin/sh\n# replay every lab-parameter seed and regression through the harness\nexec %s tests/fuzz/labs-seeds $$(find tests/fuzz/regress/labs -type f 2>/dev/null | sort)\n' \
	    $(BUILD)/tests/replay_labs > $@
	@chmod +x $@

CHECK_STEPS += $(BUILD)/tests/fuzz-replay-labs.sh
check: $(BUILD)/tests/fuzz-replay-labs.sh

$(BUILD)/tests/replay_runs: $(call obj,tests/fuzz/replay.c) $(FUZZ_RUNS_DEPS)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(FUZZ_LIBS)

$(BUILD)/tests/fuzz-replay-runs.sh: $(BUILD)/tests/replay_runs mk/fuzz.mk
	@printf '#!/bin/sh\n# replay every runs-file seed and regression through the harness\nexec %s tests/fuzz/runs-seeds $$(find tests/fuzz/regress/runs -type f 2>/dev/null | sort)\n' \
	    $(BUILD)/tests/replay_runs > $@
	@chmod +x $@

CHECK_STEPS += $(BUILD)/tests/fuzz-replay-runs.sh
check: $(BUILD)/tests/fuzz-replay-runs.sh

# run-tests.sh runs each step without arguments: these wrappers carry the build folder.
$(BUILD)/tests/fuzz-replay.sh: $(BUILD)/tests/replay_quizc mk/fuzz.mk
	@printf '#!/bin/sh\n# replay every fuzz regression and seed through the harness\nexec %s tests/fuzz/regress/quizc quizzes tests/hostile/cases/*.qz $$(find tests/data -name "*.qz" | sort)\n' \
	    $(BUILD)/tests/replay_quizc > $@
	@chmod +x $@

# tests/hostile/NAME.sh BUILD, as a step without arguments.
$(BUILD)/tests/hostile-%.sh: tests/hostile/%.sh tests/hostile/lib/common.sh mk/fuzz.mk
	@mkdir -p $(@D)
	@printf '#!/bin/sh\nexec %s %s\n' $< $(BUILD) > $@
	@chmod +x $@

HOSTILE_STEPS := $(patsubst tests/hostile/%.sh,$(BUILD)/tests/hostile-%.sh,$(wildcard tests/hostile/*.sh))
CHECK_STEPS += $(BUILD)/tests/fuzz-replay.sh $(HOSTILE_STEPS)
check: $(BUILD)/tests/fuzz-replay.sh $(HOSTILE_STEPS)

# ---- libFuzzer -------------------------------------------------------------

ifeq ($(FUZZ_INNER),1)
# Inside the fuzz build (BUILD is the fuzz folder, CC clang, CFLAGS with the sanitizers).
fuzz-bins: $(BUILD)/fuzz_quizc $(BUILD)/fuzz_runs $(BUILD)/fuzz_labs $(if $(FUZZ_MANIFEST_READY),$(BUILD)/fuzz_manifest)

$(BUILD)/fuzz_labs: $(FUZZ_LABS_DEPS)
	$(CC) -fsanitize=fuzzer,address,undefined $^ -o $@ $(RUNTIME_LIBS) $(LDLIBS) -lm -lpthread

$(BUILD)/fuzz_runs: $(FUZZ_RUNS_DEPS)
	$(CC) -fsanitize=fuzzer,address,undefined $^ -o $@ $(FUZZ_LIBS)

$(BUILD)/fuzz_quizc: $(FUZZ_QUIZC_DEPS)
	$(CC) -fsanitize=fuzzer,address,undefined $^ -o $@ $(FUZZ_LIBS)

$(BUILD)/fuzz_manifest: $(FUZZ_MANIFEST_DEPS)
	$(CC) -fsanitize=fuzzer,address,undefined $^ -o $@ $(RUNTIME_LIBS) -lm -lpthread
else
# LDFLAGS: the build tools it runs (labgen, for the labs fuzz_labs links) carry the sanitizers too.
fuzz-bins:
	$(MAKE) BUILD=$(FUZZ_DIR)/build CC=$(FUZZ_CC) FUZZ_INNER=1 SAN= NVCC= MPICC= \
	    CFLAGS='-O1 -g -fno-omit-frame-pointer $(FUZZ_SAN)' LDFLAGS='-fsanitize=address,undefined' fuzz-bins
endif

fuzz: fuzz-bins
	tests/fuzz/run-fuzz.sh $(FUZZ_DIR) $(FUZZ_SECONDS)

# ---- valgrind ----------------------------------------------------------------

# labrun for valgrind is built without the GPU and MPI backends (see tests/memcheck/run.sh).
MEMCHECK_DIR := $(BUILD)/memcheck
memcheck: all
	$(MAKE) BUILD=$(MEMCHECK_DIR) NVCC= MPICC= SAN= $(MEMCHECK_DIR)/labrun
	tests/memcheck/run.sh $(BUILD) $(MEMCHECK_DIR)

# ---- ThreadSanitizer over the threads backend --------------------------------

# Criterion cannot start under TSan, so the threads backend is driven by
# tests/runtime/tsan_threads.c, and a TSan-built labrun runs every lab
# (tests/runtime/tsan.sh), in their own folder.
TSAN_DIR   := $(BUILD)/tsan
TSAN_FLAGS := -O1 -g -fno-omit-frame-pointer -fsanitize=thread

ifeq ($(TSAN_INNER),1)
$(BUILD)/tests/tsan_threads: $(call obj,tests/runtime/tsan_threads.c runtime/comm_shared_host.c tests/runtime/shared_ranks.c) \
                             $(RUNTIME_CORE_OBJS) $(UTIL_OBJS)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(RUNTIME_LIBS) $(LDLIBS)

tsan-bins: $(BUILD)/tests/tsan_threads $(BUILD)/labrun
else
tsan:
	$(MAKE) BUILD=$(TSAN_DIR) CC=$(FUZZ_CC) TSAN_INNER=1 SAN= NVCC= MPICC= \
	    CFLAGS='$(TSAN_FLAGS)' LDFLAGS=-fsanitize=thread tsan-bins
	tests/runtime/tsan.sh $(TSAN_DIR)
endif

else
fuzz memcheck tsan:
	@echo "$@: the parser (grammar/quiz.y) is not in the tree yet; nothing to run"
endif
