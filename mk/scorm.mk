# SCORM packages: imsmanifest.xml, the player's quiz data, the zip, and the
# player itself (compiler/player/), compiled into quizc as a C table so quizc
# never reads the source tree at run time.

PLAYER_FILES := $(sort $(wildcard compiler/player/*.html compiler/player/*.js compiler/player/*.css))
PLAYER_GEN   := $(BUILD)/gen/player_res.c
SCORM_SRCS   := compiler/emit_scorm.c compiler/scorm_text.c compiler/manifest.c compiler/course_json.c compiler/zip.c \
                compiler/live_labs.c compiler/zip_packed.c
SCORM_LIBS   := $(ZIP_LIBS) $(ZLIB_LIBS) $(JSON_LIBS)

# The generated table is compiled like any source (its object lands under
# $(BUILD)/obj/$(BUILD)/gen).  LDLIBS, not only QUIZC_LIBS: every program
# built from QUIZC_SRCS (the fuzz replay too) links these sources.
QUIZC_SRCS += $(SCORM_SRCS) $(PLAYER_GEN)
LDLIBS     += $(SCORM_LIBS)

# The libFuzzer harness links these sources with its own library list.
$(BUILD)/fuzz_quizc: FUZZ_LIBS += $(SCORM_LIBS)

# formats.c registers the package writers only where this module is built in.
$(call obj,compiler/formats.c): CPPFLAGS += -DQUIZC_SCORM
$(call obj,compiler/formats.c): mk/scorm.mk

# A build tool, run on this machine: plain flags, no sanitizers.
$(BUILD)/tools/embed: compiler/embed.c
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra $< -o $@

$(PLAYER_GEN): $(BUILD)/tools/embed $(PLAYER_FILES) mk/scorm.mk
	@mkdir -p $(@D)
	$(BUILD)/tools/embed $@ $(foreach f,$(PLAYER_FILES),$(notdir $(f))=$(f))

# The files a package carries as they are, deflated once here by emit_zip
# itself (compiler/packzip.c) into a zip that quizc carries as the table
# zip_packed: a package copies their deflated bytes (zip.c).  NAME=PATH
# pairs, and the paths; web.mk adds the labs' module.
PACKED_FILES = $(foreach f,$(PLAYER_FILES) $(TEMML_JS),$(notdir $(f))=$(f))
PACKED_DEPS  = $(PLAYER_FILES) $(TEMML_JS)
PACKED_ZIP  := $(BUILD)/gen/packed.zip
PACKED_GEN  := $(BUILD)/gen/packed_res.c
QUIZC_SRCS  += $(PACKED_GEN)

$(BUILD)/tools/packzip: $(call obj,compiler/packzip.c compiler/zip.c compiler/zip_packed.c compiler/emit.c) $(LIBQZ)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ $(ZIP_LIBS) $(ZLIB_LIBS)

$(PACKED_ZIP): $(BUILD)/tools/packzip $$(PACKED_DEPS) mk/scorm.mk
	@mkdir -p $(@D)
	$(BUILD)/tools/packzip $@.tmp $(PACKED_FILES) && mv $@.tmp $@

$(PACKED_GEN): $(BUILD)/tools/embed $(PACKED_ZIP)
	$(BUILD)/tools/embed --table zip_packed $@ packed.zip=$(PACKED_ZIP)

# ---- Tests ------------------------------------------------------------------

# Loading fixture quizzes: the compiler tests' support (tests/compiler/support.h).
SCORM_TEST_SUPPORT := tests/compiler/support.c
$(call obj,tests/scorm/test_manifest.c tests/scorm/test_course_json.c): CPPFLAGS += -Itests/compiler
SCORM_PKG_SRCS := $(SCORM_SRCS) $(PLAYER_GEN) compiler/emit.c compiler/grading.c compiler/kinds.c compiler/emit_xml.c compiler/xw.c compiler/lab_text.c compiler/check.c compiler/check_ids.c compiler/xml_chars.c compiler/runs.c compiler/run_text.c compiler/runs_judge.c $(MEDIA_SRCS)

$(eval $(call criterion_test,test_zip,tests/scorm/test_zip.c compiler/zip.c compiler/zip_packed.c compiler/emit.c,$(LIBQZ),$(SCORM_LIBS)))
$(eval $(call criterion_test,test_zip_packed,tests/scorm/test_zip_packed.c compiler/zip.c compiler/emit.c $(PACKED_GEN) $(PLAYER_GEN) $(MATH_GEN),$(LIBQZ),$(SCORM_LIBS)))
$(eval $(call criterion_test,test_manifest,tests/scorm/test_manifest.c $(SCORM_TEST_SUPPORT) $(SCORM_PKG_SRCS),$(LIBQZ),$(SCORM_LIBS) $(XML_LIBS)))
$(eval $(call criterion_test,test_course_json,tests/scorm/test_course_json.c $(SCORM_TEST_SUPPORT) $(SCORM_PKG_SRCS),$(LIBQZ),$(SCORM_LIBS) $(XML_LIBS)))

# Schema validation (xmllint against the ADL/IMS schemas from npm) and the
# browser tests (headless chromium, scorm-again as the LMS) run the quizc of
# this build; run-tests.sh runs steps without arguments, so wrappers carry it.
$(BUILD)/tests/scorm-schemas.sh: mk/scorm.mk | $(BUILD)/quizc
	@mkdir -p $(@D)
	@printf '#!/bin/sh\nexec tests/scorm/validate.sh %s\n' $(BUILD) > $@
	@chmod +x $@

$(BUILD)/tests/browser.sh: mk/scorm.mk | $(BUILD)/quizc
	@mkdir -p $(@D)
	@printf '#!/bin/sh\nexec tests/browser/run.sh %s\n' $(BUILD) > $@
	@chmod +x $@

# The browser tests take the page's JavaScript (the same whatever quizc's
# build) through every path, ten minutes of Chromium: the plain build runs
# them.  A sanitized build runs quizc's own package, schema and format tests.
CHECK_STEPS += $(BUILD)/tests/scorm-schemas.sh
check: $(BUILD)/tests/scorm-schemas.sh
ifneq ($(SAN),1)
CHECK_STEPS += $(BUILD)/tests/browser.sh
check: $(BUILD)/tests/browser.sh
endif
