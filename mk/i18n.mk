# labrun's messages in other languages (runtime/i18n.h): po/LANG.po, GNU
# gettext's catalogues, compiled by msgfmt, which checks that every
# translated printf format has the msgid's placeholders.
I18N_LANGS := id
LABRUN_MOS := $(foreach l,$(I18N_LANGS),$(BUILD)/locale/$(l)/LC_MESSAGES/labrun.mo)
# The sources whose messages po/*.po translates, and how xgettext finds them:
# _(), N_() (and gettext's own ngettext).
# Every source of labrun and its labs, so that a message marked in a new file
# is checked too (tests/runtime/i18n.sh fails while po/id.po lacks it).
I18N_SRCS := $(sort $(foreach f,$(wildcard runtime/*.c runtime/cuda/*.c runtime/mpi/*.c runtime/web/*.c labs/*/*.c),$(if $(findstring /test_,$(f)),,$(f))))
I18N_KEYWORDS := --keyword=_ --keyword=N_

$(BUILD)/locale/%/LC_MESSAGES/labrun.mo: po/%.po
	@mkdir -p $(@D)
	msgfmt --check-format --check-header -o $@ $<

ifeq ($(LIBQZ_READY)$(wildcard runtime/main.c),yesruntime/main.c)
all: $(LABRUN_MOS)
endif

$(call obj,runtime/i18n.c): CPPFLAGS += -DLABRUN_LOCALEDIR='"$(PREFIX)/share/locale"'

install: install-locale
.PHONY: install-locale pot
install-locale: $(LABRUN_MOS)
	for l in $(I18N_LANGS); do install -D -m 644 $(BUILD)/locale/$$l/LC_MESSAGES/labrun.mo \
	    $(DESTDIR)$(PREFIX)/share/locale/$$l/LC_MESSAGES/labrun.mo; done

# `make pot`: the messages as xgettext finds them now, to merge into po/*.po (msgmerge -U).
pot:
	@mkdir -p $(BUILD)
	xgettext --language=C --from-code=UTF-8 $(I18N_KEYWORDS) --no-location -o $(BUILD)/labrun.pot $(I18N_SRCS)

# Every message translated, none fuzzy, and labrun --lang id's words (a step of `make check`).
TEST_BINS += $(BUILD)/tests/runtime/i18n
$(BUILD)/tests/runtime/i18n: tests/runtime/i18n.sh mk/i18n.mk $(LABRUN) $(LABRUN_MOS)
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec tests/runtime/i18n.sh %s "%s" %s\n' '$(LABRUN)' '$(I18N_KEYWORDS)' '$(I18N_SRCS)' > $@ && chmod +x $@

# The report's test reads the Indonesian legend from the compiled catalogue.
$(BUILD)/tests/runtime/report: | $(LABRUN_MOS)
