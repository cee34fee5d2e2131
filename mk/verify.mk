# labrun --verify (runtime/verify.c) and its tests.  Included after
# mk/labs.mk, which links labrun and knows the labs.

VERIFY_SRCS := runtime/verify.c runtime/verify_table.c runtime/verify_cli.c runtime/verify_record.c
LABRUN_SRCS := $(filter-out $(VERIFY_SRCS),$(LABRUN_SRCS)) $(VERIFY_SRCS)
$(LABRUN): $(call obj,$(VERIFY_SRCS))

# --verify runs the real labs: link every lab and the generated table, as labrun does.
VERIFY_TEST_OBJS := $(call obj,$(VERIFY_SRCS) runtime/labs.c) $(LAB_OBJS) $(LAB_TABLE_OBJ) $(RUNTIME_OBJS) $(LIBQZ)
$(eval $(call criterion_test,runtime/verify,tests/runtime/test_verify.c,$(VERIFY_TEST_OBJS),$(RUNTIME_LIBS)))

# The seed quiz's claims, on the cpu backend (run-tests.sh runs steps without arguments).
$(BUILD)/tests/verify-seed.sh: mk/verify.mk
	@mkdir -p $(@D)
	@printf '#!/bin/sh\n# every lab claim of the seed quiz, on the cpu backend\nexec %s --verify quizzes/paralelisme.qz\n' \
	    $(LABRUN) > $@
	@chmod +x $@

# The second shipped quiz's claims (small lab runs: a few seconds).
$(BUILD)/tests/verify-lanjut.sh: mk/verify.mk
	@mkdir -p $(@D)
	@printf '#!/bin/sh\n# every lab claim of the second shipped quiz, on the cpu backend\nexec %s --verify quizzes/paralelisme-lanjut.qz\n' \
	    $(LABRUN) > $@
	@chmod +x $@

CHECK_STEPS += $(BUILD)/tests/verify-seed.sh $(BUILD)/tests/verify-lanjut.sh
check: $(BUILD)/tests/verify-seed.sh $(BUILD)/tests/verify-lanjut.sh $(LABRUN)

# The claims table shared with the player (tests/data/claims.json): the judgement alone, through libqz's parser.
$(eval $(call criterion_test,runtime/claims,tests/runtime/test_claims.c,$(LIBQZ),$(JSON_LIBS)))
$(eval $(call criterion_test,runtime/record,tests/runtime/test_record.c,$(VERIFY_TEST_OBJS),$(RUNTIME_LIBS)))
