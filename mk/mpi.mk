# The mpi backend: built when mpicc is found.  `make MPICC=` builds without it.
# Its sources are compiled by $(CC) with the flags mpicc would add, so they get
# our warnings and, with SAN=1, the sanitizers.  With nvcc and NCCL (mk/gpu.mk)
# `--device cuda` is built in too.

MPICC ?= $(shell command -v mpicc 2>/dev/null)
MPIRUN ?= $(shell command -v mpirun 2>/dev/null)

ifneq ($(strip $(MPICC)),)
MPI_CFLAGS := $(shell $(MPICC) --showme:compile 2>/dev/null)
MPI_LIBS   := $(shell $(MPICC) --showme:link 2>/dev/null)
$(info mpi: mpicc ✓ $(MPICC) ($(shell $(MPIRUN) --version 2>/dev/null | head -1)))

MPI_CUDA_SRC := $(if $(and $(strip $(NVCC)),$(HAVE_NCCL)),runtime/mpi/mpi_cuda.c,runtime/mpi/mpi_nocuda.c)
MPI_SRCS  := runtime/mpi/comm_mpi.c runtime/mpi/backend_mpi.c $(MPI_CUDA_SRC)
MPI_OBJS  := $(call obj,$(MPI_SRCS)) $(call obj,runtime/callcheck.c)

$(call obj,$(MPI_SRCS)): CPPFLAGS += $(MPI_CFLAGS) -Iruntime/mpi
$(call obj,runtime/mpi/mpi_cuda.c): CPPFLAGS += $(CUDA_CPPFLAGS)

# labrun gets the real backend_mpi, which replaces the stand-in of backend.c.
$(LABRUN): $(MPI_OBJS)
$(LABRUN): LDLIBS += $(MPI_LIBS)

# The MPI tests: the communicator against a serial reference and the threads
# backend, then labs under mpirun against the same labs on threads.
MPI_TEST := $(BUILD)/tests/mpi/test_comm_mpi
$(MPI_TEST): $(call obj,tests/mpi/test_comm_mpi.c runtime/mpi/comm_mpi.c runtime/callcheck.c \
                     runtime/comm.c runtime/coll.c runtime/comm_threads.c runtime/comm_threads_ar.c runtime/timer.c runtime/timer_real.c \
                     runtime/timer_cores.c grammar/util.c)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(MPI_LIBS) $(LDLIBS)
$(call obj,tests/mpi/test_comm_mpi.c): CPPFLAGS += $(MPI_CFLAGS) -Iruntime/mpi

# A failed check on one rank must end the job (fail_check.c).
MPI_FAIL_TEST := $(BUILD)/tests/mpi/fail_check
$(MPI_FAIL_TEST): $(call obj,tests/mpi/fail_check.c runtime/mpi/comm_mpi.c runtime/callcheck.c \
                          runtime/comm.c runtime/coll.c runtime/timer.c runtime/timer_real.c grammar/util.c)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(MPI_LIBS) $(LDLIBS)
$(call obj,tests/mpi/fail_check.c): CPPFLAGS += $(MPI_CFLAGS) -Iruntime/mpi

MPI_CHECK_STEP := $(BUILD)/tests/mpi/run-mpi-tests
$(MPI_CHECK_STEP): tests/mpi/run.sh $(MPI_TEST) $(MPI_FAIL_TEST) $(LABRUN)
	@mkdir -p $(@D)
	@printf '#!/bin/sh\nexec tests/mpi/run.sh "%s" "%s" "%s" "%s"\n' "$(MPIRUN)" "$(MPI_TEST)" "$(LABRUN)" "$(MPI_FAIL_TEST)" > $@
	@chmod +x $@
CHECK_STEPS += $(MPI_CHECK_STEP)
check: $(MPI_CHECK_STEP)
else
$(info mpi: mpicc ✗ (not on PATH, or MPICC= was given): labrun --backend mpi will say it is not built in)
endif
