# libqz: lexer, parser, AST, diagnostics, loader (shared by quizc and labrun).

GEN_HEADERS := $(BUILD)/gen/quiz.tab.h $(BUILD)/gen/lex.yy.h $(BUILD)/gen/keywords.gen.h
LIBQZ_SRCS  += grammar/arena.c grammar/loc.c grammar/ast.c grammar/md.c grammar/diag.c grammar/util.c grammar/load.c grammar/labs.c \
               grammar/labpath.c grammar/labref.c grammar/interval.c grammar/claim.c grammar/labhash.c grammar/snippet.c \
               grammar/keywords.c grammar/lex.c grammar/lex_text.c grammar/parse.c grammar/parse_error.c \
               grammar/build.c grammar/build_lab.c grammar/build_mistake.c \
               grammar/inputs.c grammar/outfile.c grammar/outdir.c
LIBQZ_GEN   := $(BUILD)/gen/quiz.tab.c $(BUILD)/gen/lex.yy.c
# Installed labs are found after -L folders, labs/ beside the quiz and ./labs.
$(call obj,grammar/labpath.c): CPPFLAGS += -DQZ_LABDIR='"$(PREFIX)/share/labrun/labs"'
LIBQZ       := $(BUILD)/libqz.a

# The keyword table (grammar/keywords.def) is the one list of keywords: kwgen, a build
# tool run on this machine (plain flags, no sanitizers), writes the grammar Bison reads
# (quiz.y with the keyword tokens and the `keyword` rule) and the scanner's lookup.
$(BUILD)/tools/kwgen: grammar/kwgen.c grammar/keywords.def grammar/keywords.h
	@mkdir -p $(@D)
	$(CC) -O2 -Wall -Wextra -Igrammar $< -o $@

$(BUILD)/gen/quiz.y $(BUILD)/gen/keywords.gen.h &: grammar/quiz.y $(BUILD)/tools/kwgen
	@mkdir -p $(@D)
	$(BUILD)/tools/kwgen grammar/quiz.y $(BUILD)/gen/quiz.y $(BUILD)/gen/keywords.gen.h

# Grouped targets (&:): one run of each tool makes both files, also under make -j.
$(BUILD)/gen/quiz.tab.c $(BUILD)/gen/quiz.tab.h &: $(BUILD)/gen/quiz.y
	@mkdir -p $(@D)
	$(BISON) -Wall -Werror --defines=$(BUILD)/gen/quiz.tab.h -o $(BUILD)/gen/quiz.tab.c $<

# A scanner state that must back up costs every byte of every source (quiz.l,
# KEEP): the build fails if one appears, as Bison's does on a conflict.
$(BUILD)/gen/lex.yy.c $(BUILD)/gen/lex.yy.h &: grammar/quiz.l $(BUILD)/gen/quiz.tab.h $(BUILD)/gen/keywords.gen.h
	@mkdir -p $(@D)
	$(FLEX) --backup-file=$(BUILD)/gen/lex.backup --header-file=$(BUILD)/gen/lex.yy.h -o $(BUILD)/gen/lex.yy.c $<
	@grep -q '^No backing up\.' $(BUILD)/gen/lex.backup || \
	  { echo "grammar/quiz.l: the scanner backs up (see $(BUILD)/gen/lex.backup)"; rm -f $(BUILD)/gen/lex.yy.c; exit 1; }

# Generated code is not held to our warning set.  -MMD: it includes lex.h, build.h and ast.h.
$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c $(GEN_HEADERS)
	@mkdir -p $(@D)
	$(CC) $(CPPFLAGS) -std=c11 $(CFLAGS) $(SAN_FLAGS) -Wno-unused-function -MMD -MP -c $< -o $@

LIBQZ_OBJS := $(call obj,$(LIBQZ_SRCS)) $(patsubst $(BUILD)/gen/%.c,$(BUILD)/obj/gen/%.o,$(LIBQZ_GEN))

$(LIBQZ): $(LIBQZ_OBJS)
	@mkdir -p $(@D)
	rm -f $@ && ar rcs $@ $^

# Tests: one binary per source file, each with the capturing diag.
GRAMMAR_TEST_SUPPORT := tests/grammar/capture.c
$(eval $(call criterion_test,grammar_lexer,tests/grammar/test_lexer.c $(GRAMMAR_TEST_SUPPORT),$(LIBQZ)))
$(eval $(call criterion_test,grammar_parser,tests/grammar/test_parser.c $(GRAMMAR_TEST_SUPPORT),$(LIBQZ)))
$(eval $(call criterion_test,grammar_parse_errors,tests/grammar/test_parse_errors.c $(GRAMMAR_TEST_SUPPORT),$(LIBQZ)))
$(eval $(call criterion_test,grammar_build_mistake,tests/grammar/test_build_mistake.c $(GRAMMAR_TEST_SUPPORT),$(LIBQZ)))
$(eval $(call criterion_test,grammar_md,tests/grammar/test_md.c $(GRAMMAR_TEST_SUPPORT),$(LIBQZ)))
$(eval $(call criterion_test,grammar_load,tests/grammar/test_load.c $(GRAMMAR_TEST_SUPPORT),$(LIBQZ)))
$(eval $(call criterion_test,grammar_build,tests/grammar/test_build.c $(GRAMMAR_TEST_SUPPORT),$(LIBQZ)))
$(eval $(call criterion_test,grammar_loc,tests/grammar/test_loc.c $(GRAMMAR_TEST_SUPPORT),$(LIBQZ)))
$(eval $(call criterion_test,grammar_keywords,tests/grammar/test_keywords.c $(GRAMMAR_TEST_SUPPORT),$(LIBQZ)))
$(eval $(call criterion_test,grammar_util,tests/grammar/test_util.c,$(LIBQZ)))
