# labrun --verify (runtime/verify.c), and the tests of the memory,
# activations and allreduce labs and of --verify.  Included after
# mk/runtime.mk and before mk/labs.mk, which links labrun from LABRUN_SRCS.

LABRUN_SRCS := $(filter-out runtime/verify.c,$(LABRUN_SRCS)) runtime/verify.c
