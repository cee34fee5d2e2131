# The quiz in other systems' quiz engines: GIFT and Moodle XML for Moodle's
# question bank, QTI 2.1 packages for Canvas, Blackboard, TAO and the rest.
# Read after mk/scorm.mk: the QTI package is zipped by its zip.c, and titles
# are flattened by its scorm_plain_text.

FORMATS_SRCS := compiler/render.c compiler/render_escape.c compiler/render_runs.c compiler/emit_gift.c compiler/emit_moodle.c compiler/emit_qti.c compiler/qti_package.c
QUIZC_SRCS   += $(FORMATS_SRCS)

# ---- Tests ------------------------------------------------------------------

FORMATS_TEST_SRCS := tests/compiler/support.c $(FORMATS_SRCS) $(SCORM_PKG_SRCS)
$(eval $(call criterion_test,test_emit_gift,tests/compiler/test_emit_gift.c $(FORMATS_TEST_SRCS),$(LIBQZ),$(SCORM_LIBS) $(XML_LIBS)))
$(eval $(call criterion_test,test_emit_moodle,tests/compiler/test_emit_moodle.c $(FORMATS_TEST_SRCS),$(LIBQZ),$(SCORM_LIBS) $(XML_LIBS)))
$(eval $(call criterion_test,test_emit_qti,tests/compiler/test_emit_qti.c $(FORMATS_TEST_SRCS),$(LIBQZ),$(SCORM_LIBS) $(XML_LIBS)))
$(eval $(call criterion_test,test_render_runs,tests/compiler/test_render_runs.c $(FORMATS_TEST_SRCS),$(LIBQZ),$(SCORM_LIBS) $(XML_LIBS)))

# The systems' own checkers, run on the quizc of this build: the QTI 2.1.2
# and IMS CP schemas, our Moodle XML schema, gift-pegjs reading GIFT back
# (tests/formats/validate.sh), and a QTI player in chromium (tests/browser/qti.sh).
$(BUILD)/tests/formats.sh: mk/formats.mk | $(BUILD)/quizc $(BUILD)/labrun
	@mkdir -p $(@D)
	@printf '#!/bin/sh\nexec tests/formats/validate.sh %s\n' $(BUILD) > $@
	@chmod +x $@

$(BUILD)/tests/browser-qti.sh: mk/formats.mk | $(BUILD)/quizc
	@mkdir -p $(@D)
	@printf '#!/bin/sh\nexec tests/browser/qti.sh %s\n' $(BUILD) > $@
	@chmod +x $@

CHECK_STEPS += $(BUILD)/tests/formats.sh $(BUILD)/tests/browser-qti.sh
check: $(BUILD)/tests/formats.sh $(BUILD)/tests/browser-qti.sh
