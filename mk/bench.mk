# make bench: quizc against gift-pegjs, labrun's cpu runtime against OpenBLAS,
# Open MPI and memcpy.  Figures go to $(BUILD)/bench/results.json and a table
# (bench/report.mjs); nothing here is part of `make check`.

BENCH_DIR   := $(BUILD)/bench
BENCH_BIN   := $(BENCH_DIR)/bin
BENCH_MPICC := $(or $(MPICC),mpicc)
BENCH_CFLAGS = -std=c11 $(WARNINGS) $(CFLAGS) -D_GNU_SOURCE

BENCH_TOOLS := $(BENCH_BIN)/gen_bank $(BENCH_BIN)/runstat $(BENCH_BIN)/bench_labs \
               $(BENCH_BIN)/bench_mpi_allreduce $(BENCH_BIN)/bench_gemm

$(BENCH_BIN)/gen_bank: bench/gen_bank.c
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) $< -o $@

$(BENCH_BIN)/runstat: bench/runstat.c
	@mkdir -p $(@D)
	$(CC) $(BENCH_CFLAGS) $< -o $@

# Linked with the runtime, as the labs are (its reports read lab texts through libqz).
$(BENCH_BIN)/bench_labs: $(call obj,bench/bench_labs.c) $(RUNTIME_OBJS) $(LIBQZ)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(RUNTIME_LIBS) $(LDLIBS)

# One OpenBLAS thread against the web GEMM (bench/web.mjs).
$(BENCH_BIN)/bench_gemm: $(call obj,bench/bench_gemm.c) $(RUNTIME_OBJS) $(LIBQZ)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(RUNTIME_LIBS) $(LDLIBS)
$(call obj,bench/bench_gemm.c): CPPFLAGS += $(BLAS_CFLAGS)

$(BENCH_BIN)/bench_mpi_allreduce: bench/bench_mpi_allreduce.c
	@mkdir -p $(@D)
	$(BENCH_MPICC) $(BENCH_CFLAGS) $< -o $@ $(JSON_LIBS) -lm

bench: $(BUILD)/quizc $(LABRUN) $(BENCH_TOOLS) web
	@test -d node_modules/gift-pegjs || scripts/deps.sh
	bench/run.sh $(BENCH_DIR) $(BUILD)/quizc $(LABRUN) $(BENCH_BIN) $(if $(HAVE_EMCC),$(WEB_MODULE))

# make check builds the tools (it does not run them): a change that breaks
# their build fails the tests, not the next benchmark.
check: $(BENCH_TOOLS)

# The pair ratios and their steadiness rule (bench/pairs.mjs), on made-up figures.
$(BUILD)/tests/bench-pairs.sh: mk/bench.mk
	@mkdir -p $(@D)
	@printf '#!/bin/sh\nexec node tests/bench/pairs_test.mjs\n' > $@
	@chmod +x $@

CHECK_STEPS += $(BUILD)/tests/bench-pairs.sh
check: $(BUILD)/tests/bench-pairs.sh
