# labrun: the lab runtime (ranks, communicators, devices, reports) and its tests.

BLAS_CFLAGS := $(shell pkg-config --cflags openblas 2>/dev/null)
RUNTIME_LIBS := $(BLAS_LIBS) $(JSON_LIBS) $(XML_LIBS)

# Ranks, communicators and devices.
# comm_shared.c and ring_dev.c are cuda-shared's device-independent half: the cuda
# backend links them, and the tests run them on the cpu device.
RUNTIME_CORE_SRCS := runtime/timer.c runtime/timer_real.c runtime/timer_cores.c runtime/comm.c runtime/coll.c runtime/comm_threads.c \
                     runtime/comm_threads_ar.c \
                     runtime/comm_shared.c runtime/ring_dev.c \
                     runtime/dev.c runtime/dev_host.c runtime/dev_cpu.c runtime/backend.c runtime/backend_cpu.c runtime/fault.c \
                     runtime/nsim.c runtime/comm_nsim.c runtime/place.c \
                     runtime/fiber_ucontext.c runtime/backend_coop.c
# The runtime: everything a lab runs on, without the command line.
RUNTIME_SRCS := $(RUNTIME_CORE_SRCS) runtime/lab_helpers.c runtime/params.c runtime/report.c runtime/report_json.c \
                runtime/report_svg.c runtime/report_words.c runtime/run.c runtime/lablimits.c runtime/inert.c runtime/i18n.c
RUNTIME_CORE_OBJS := $(call obj,$(RUNTIME_CORE_SRCS))
RUNTIME_OBJS := $(call obj,$(RUNTIME_SRCS))
# What the runtime's core takes from libqz: the allocation helpers (util.c) and
# outfile.c, whose clean-up fault.c's stop handlers call; the archive links only those.
UTIL_OBJS    := $(LIBQZ)

LABRUN_SRCS  += $(RUNTIME_SRCS) runtime/labs.c runtime/help.c runtime/cli.c runtime/main.c
LABRUN       := $(BUILD)/labrun

$(call obj,runtime/dev_cpu.c): CPPFLAGS += $(BLAS_CFLAGS)

# labrun needs libqz (manifests); it is built once the grammar sources are all there.
LIBQZ_READY := $(if $(filter-out $(wildcard $(LIBQZ_SRCS) grammar/quiz.y grammar/quiz.l),$(LIBQZ_SRCS) grammar/quiz.y grammar/quiz.l),,yes)
ifeq ($(LIBQZ_READY)$(wildcard runtime/main.c),yesruntime/main.c)
all: $(LABRUN)
endif

# The link rule is in mk/labs.mk, with the lab objects.

$(eval $(call criterion_test,runtime/comm,tests/runtime/test_comm.c,$(RUNTIME_CORE_OBJS) $(UTIL_OBJS),$(RUNTIME_LIBS)))
$(eval $(call criterion_test,runtime/lablimits,tests/runtime/test_lablimits.c,$(call obj,runtime/lablimits.c runtime/params.c) $(LIBQZ)))
$(eval $(call criterion_test,runtime/nsim,tests/runtime/test_nsim.c,$(RUNTIME_CORE_OBJS) $(UTIL_OBJS),$(RUNTIME_LIBS)))
$(eval $(call criterion_test,runtime/coop,tests/runtime/test_coop.c,$(RUNTIME_CORE_OBJS) $(UTIL_OBJS),$(RUNTIME_LIBS)))
# The shared communicator with host hooks (only the tests use them), and the device rings.
SHARED_TEST_OBJS := $(call obj,runtime/comm_shared_host.c tests/runtime/shared_ranks.c) $(RUNTIME_CORE_OBJS) $(UTIL_OBJS)
$(eval $(call criterion_test,runtime/comm_shared,tests/runtime/test_comm_shared.c,$(SHARED_TEST_OBJS),$(RUNTIME_LIBS)))
$(eval $(call criterion_test,runtime/ring_dev,tests/runtime/test_ring_dev.c,$(SHARED_TEST_OBJS),$(RUNTIME_LIBS)))
$(eval $(call criterion_test,runtime/dev,tests/runtime/test_dev.c,$(RUNTIME_CORE_OBJS) $(UTIL_OBJS),$(RUNTIME_LIBS)))
$(eval $(call criterion_test,runtime/place,tests/runtime/test_place.c,$(call obj,runtime/place.c),))
$(eval $(call criterion_test,runtime/params,tests/runtime/test_params.c,$(RUNTIME_OBJS) $(LIBQZ),$(RUNTIME_LIBS)))
$(eval $(call criterion_test,runtime/report,tests/runtime/test_report.c,$(RUNTIME_OBJS) $(LIBQZ),$(RUNTIME_LIBS)))

# quizc's install rule (mk/compiler.mk) installs INSTALL_BINS and INSTALL_MANS;
# the labs' folders (but their tests) go to PREFIX/share/labrun/labs, where labrun looks last.
INSTALL_BINS += $(LABRUN)
INSTALL_MANS += runtime/labrun.1
install: install-labs
.PHONY: install-labs
install-labs:
	for d in labs/*/; do install -d $(DESTDIR)$(PREFIX)/share/labrun/$$d && \
	    install -m 644 $$(ls -d $$d* | grep -v '/test_') $(DESTDIR)$(PREFIX)/share/labrun/$$d; done

# The command line, end to end (a step of `make check`).
TEST_BINS += $(BUILD)/tests/runtime/cli
$(BUILD)/tests/runtime/cli: tests/runtime/cli.sh $(LABRUN)
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/runtime/cli.sh %s\n' '$(LABRUN)' > $@ && chmod +x $@

# Every lab under NCCL's message rules against the cpu backend (a step of `make check`).
# A sanitized build runs a sample of the lab runs (every third, every eighth on
# coop): the sanitizers look for memory errors, which one run of each schedule
# finds, and the plain build runs the whole list.
ifeq ($(SAN),1)
LAB_STRIDES := NCCL_SIM_STRIDE=3 COOP_STRIDE=8
endif
TEST_BINS += $(BUILD)/tests/runtime/nccl-sim
$(BUILD)/tests/runtime/nccl-sim: mk/runtime.mk tests/runtime/nccl_sim.sh tests/runtime/lab_cases.sh tests/runtime/compare_backends.js $(LABRUN)
	@mkdir -p $(@D)
	printf '#!/bin/sh\n$(LAB_STRIDES) exec tests/runtime/nccl_sim.sh %s\n' '$(LABRUN)' > $@ && chmod +x $@

# A sample of every lab's runs with the ranks as coroutines on one thread, against the cpu backend.
TEST_BINS += $(BUILD)/tests/runtime/coop-labs
$(BUILD)/tests/runtime/coop-labs: mk/runtime.mk tests/runtime/coop.sh tests/runtime/lab_cases.sh tests/runtime/compare_backends.js $(LABRUN)
	@mkdir -p $(@D)
	printf '#!/bin/sh\n$(LAB_STRIDES) exec tests/runtime/coop.sh %s\n' '$(LABRUN)' > $@ && chmod +x $@
