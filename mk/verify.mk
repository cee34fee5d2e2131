# labrun --verify (runtime/verify.c), and the tests of the memory,
# activations and allreduce labs and of --verify.  Included after
# mk/runtime.mk and before mk/labs.mk, which links labrun from LABRUN_SRCS.

VERIFY_SRCS := runtime/verify.c runtime/verify_expect.c runtime/verify_cli.c
LABRUN_SRCS := $(filter-out $(VERIFY_SRCS),$(LABRUN_SRCS)) $(VERIFY_SRCS)

# Lab tests link the lab's own objects, the runtime and libqz (manifests).
LABSUPPORT_OBJS := $(call obj,tests/labs/lab_support.c) $(RUNTIME_OBJS) $(LIBQZ)

$(call obj,tests/labs/test_memory.c): CPPFLAGS += -Ilabs/memory
$(call obj,tests/labs/test_allreduce.c): CPPFLAGS += -Ilabs/allreduce
$(call obj,tests/labs/lab_support.c tests/labs/test_memory.c tests/labs/test_activations.c tests/labs/test_allreduce.c): CPPFLAGS += -Itests/labs

$(eval $(call criterion_test,labs/memory,tests/labs/test_memory.c,$(call obj,labs/memory/mem_model.c labs/memory/memory.c) $(LABSUPPORT_OBJS),$(RUNTIME_LIBS)))
$(eval $(call criterion_test,labs/activations,tests/labs/test_activations.c,$(call obj,labs/activations/activations.c) $(LABSUPPORT_OBJS),$(RUNTIME_LIBS)))
$(eval $(call criterion_test,labs/allreduce,tests/labs/test_allreduce.c,$(call obj,labs/allreduce/ar_model.c labs/allreduce/allreduce.c) $(LABSUPPORT_OBJS),$(RUNTIME_LIBS)))

# --verify runs the real labs: link every lab and the generated table, as labrun does.
VERIFY_TEST_OBJS := $(call obj,$(VERIFY_SRCS) runtime/labs.c $(sort $(wildcard labs/*/*.c))) \
                    $(BUILD)/obj/gen/labs_table.o $(RUNTIME_OBJS) $(LIBQZ)
$(eval $(call criterion_test,runtime/verify,tests/runtime/test_verify.c,$(VERIFY_TEST_OBJS),$(RUNTIME_LIBS)))

# The seed quiz's claims, on the cpu backend (run-tests.sh runs steps without arguments).
$(BUILD)/tests/verify-seed.sh: mk/verify.mk
	@mkdir -p $(@D)
	@printf '#!/bin/sh\n# every lab claim of the seed quiz, on the cpu backend\nexec %s --verify quizzes/paralelisme.qz\n' \
	    $(LABRUN) > $@
	@chmod +x $@

CHECK_STEPS += $(BUILD)/tests/verify-seed.sh
check: $(BUILD)/tests/verify-seed.sh $(LABRUN)
