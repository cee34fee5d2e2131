# quizc: semantic checks, emitters, atomic output, the command line.
#
# The packaging module appends its sources to QUIZC_SRCS and its libraries to
# QUIZC_LIBS (mk/scorm.mk, read after this file); the link rule expands both
# late, so it sees them.

QUIZC_SRCS += compiler/main.c compiler/formats.c compiler/check.c compiler/check_ids.c compiler/xml_chars.c compiler/emit.c compiler/grading.c compiler/kinds.c compiler/emit_xml.c compiler/xw.c compiler/lab_text.c compiler/output.c compiler/runs.c compiler/run_text.c compiler/runs_judge.c

# Figures and formulas (compiler/media.h): images checked and hashed (Nettle,
# libxml2), TeX made MathML by Temml under Node.js.  Temml's script, from
# node_modules at the version package-lock.json pins, is compiled into quizc
# with the driver that calls it (the table math_res), as the player is.
TEMML_JS   := node_modules/temml/dist/temml.min.js
MATH_FILES := $(TEMML_JS) compiler/math/tex2mml.js
MATH_GEN   := $(BUILD)/gen/math_res.c
MEDIA_SRCS := compiler/media.c compiler/image_check.c compiler/texmml.c compiler/mathcache.c $(MATH_GEN)
NETTLE_LIBS := $(call pkg_libs,nettle,-lnettle)
QUIZC_SRCS += $(MEDIA_SRCS)
LDLIBS     += $(NETTLE_LIBS) $(XML_LIBS)

$(MATH_GEN): $(BUILD)/tools/embed $(MATH_FILES) mk/compiler.mk
	@mkdir -p $(@D)
	$(BUILD)/tools/embed --table math_res $@ $(foreach f,$(MATH_FILES),$(notdir $(f))=$(f))


all: $(BUILD)/quizc

.SECONDEXPANSION:
$(BUILD)/quizc: $$(call obj,$$(QUIZC_SRCS)) $$(LIBQZ)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(QUIZC_LIBS) $(LDLIBS)

# ---- Tests ------------------------------------------------------------------


$(eval $(call criterion_test,test_check,tests/compiler/test_check.c tests/compiler/support.c compiler/check.c compiler/check_ids.c compiler/xml_chars.c,$(LIBQZ)))
$(eval $(call criterion_test,test_labs,tests/compiler/test_labs.c tests/compiler/support.c compiler/check.c compiler/check_ids.c compiler/xml_chars.c,$(LIBQZ)))
$(eval $(call criterion_test,test_xw,tests/compiler/test_xw.c compiler/xw.c compiler/emit.c,$(LIBQZ)))
$(eval $(call criterion_test,test_emit_xml,tests/compiler/test_emit_xml.c tests/compiler/support.c compiler/check.c compiler/check_ids.c compiler/xml_chars.c compiler/emit.c compiler/grading.c compiler/kinds.c compiler/emit_xml.c compiler/run_text.c compiler/xw.c $(MEDIA_SRCS),$(LIBQZ),$(XML_LIBS)))
$(eval $(call criterion_test,test_output,tests/compiler/test_output.c compiler/output.c compiler/emit.c,$(LIBQZ)))
$(eval $(call criterion_test,test_cli,tests/compiler/test_cli.c grammar/util.c,,))

# Figures and formulas through quizc of this build (tests/compiler/media.sh).
$(BUILD)/tests/media.sh: mk/compiler.mk | $(BUILD)/quizc
	@mkdir -p $(@D)
	@printf '#!/bin/sh\nexec tests/compiler/media.sh %s\n' $(BUILD) > $@
	@chmod +x $@

CHECK_STEPS += $(BUILD)/tests/media.sh
check: $(BUILD)/tests/media.sh

# The CLI test runs the quizc of this build.
$(call obj,tests/compiler/test_cli.c): CPPFLAGS += -DQUIZC_BIN='"$(BUILD)/quizc"'
$(BUILD)/tests/test_cli: | $(BUILD)/quizc

# ---- Install ------------------------------------------------------------------
#
# Other modules append to INSTALL_BINS (built programs) and INSTALL_MANS
# (section-1 pages); `make install PREFIX=... DESTDIR=...` copies them all.

INSTALL_BINS += $(BUILD)/quizc
INSTALL_MANS += compiler/quizc.1

install: $$(INSTALL_BINS)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 755 $(INSTALL_BINS) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(INSTALL_MANS) $(DESTDIR)$(PREFIX)/share/man/man1/

# ---- The XML writer held against xmlTextWriter ------------------------------
#
# quizc-libxml is quizc with xw_libxml.c in place of xw.c: every XML document
# (course, SCORM manifest, Moodle XML, QTI) written by libxml2's
# xmlTextWriter.  xw-same.sh compiles every quiz of the tree with both, to
# every format, and wants the same bytes.  quizc itself does not load
# libxml2 (with ICU and libstdc++, a third of its start-up).

$(BUILD)/tests/quizc-libxml: $$(call obj,$$(filter-out compiler/xw.c,$$(QUIZC_SRCS)) compiler/xw_libxml.c) $$(LIBQZ)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(QUIZC_LIBS) $(XML_LIBS) $(LDLIBS)

$(BUILD)/tests/xw-same.sh: mk/compiler.mk | $(BUILD)/quizc $(BUILD)/tests/quizc-libxml $(BUILD)/bench/bin/gen_bank
	@mkdir -p $(@D)
	@printf '#!/bin/sh\nexec tests/compiler/xw_same.sh %s\n' $(BUILD) > $@
	@chmod +x $@

CHECK_STEPS += $(BUILD)/tests/xw-same.sh
check: $(BUILD)/tests/xw-same.sh
$(eval $(call criterion_test,test_runs,tests/compiler/test_runs.c tests/compiler/support.c compiler/runs.c compiler/run_text.c compiler/runs_judge.c,$(LIBQZ),$(JSON_LIBS)))
$(eval $(call criterion_test,test_runs_judge,tests/compiler/test_runs_judge.c tests/compiler/support.c compiler/runs.c compiler/run_text.c compiler/runs_judge.c,$(LIBQZ),$(JSON_LIBS)))
