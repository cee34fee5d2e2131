# The labs in the browser: build/web/labs.wasm, the labs' C code, the
# runtime's lab interface and a web device compiled to WebAssembly, with
# emscripten's loader build/web/labs.js; the quiz page compiles the first
# and runs it in a worker with the second (doc/web.md).
#
# emcc is Debian's emscripten package; its libraries come prebuilt in
# /usr/share/emscripten/cache, so a build needs no network.  Debian's emcc
# runs its JavaScript tools with node, which finds Debian's acorn through
# NODE_PATH.  Without emcc the page has no Run button and this prints why.

EMCC      ?= emcc
EMCC_RUN  := env NODE_PATH=/usr/share/nodejs $(EMCC)
HAVE_EMCC := $(shell command -v $(EMCC) 2>/dev/null)
# A sanitized build carries the plain build's module: emcc builds it without
# sanitizers, so the two would be the same bytes, built twice (minutes).
ifeq ($(SAN),1)
WEB_FROM  := build
else
WEB_FROM  := $(BUILD)
endif
WEB       := $(WEB_FROM)/web
WEB_JS    := $(WEB)/labs.js
WEB_WASM  := $(WEB)/labs.wasm
# What a package carries: the module's bytes in base64 (labrunWasm), which the
# page compiles once, and the loader with the worker's code
# (runtime/web/labworker.js) inside one function, which the page starts as a
# worker from its source.
WEB_MODULE := $(WEB)/labrun-module.js

# The runtime without threads, signals, files or OpenBLAS: its Linux halves
# (timer_real.c, timer_cores.c, fault.c, backend.c, dev_cpu.c, fiber_ucontext.c)
# have web counterparts in runtime/web/; the coop backend runs the ranks.
WEB_RUNTIME_SRCS := runtime/timer.c runtime/comm.c runtime/coll.c runtime/dev.c runtime/dev_host.c \
                    runtime/nsim.c runtime/comm_nsim.c runtime/backend_coop.c \
                    runtime/lab_helpers.c runtime/params.c runtime/report.c runtime/report_json.c \
                    runtime/report_svg.c runtime/report_words.c runtime/run.c runtime/lablimits.c runtime/inert.c runtime/labs.c \
                    runtime/web/timer_web.c runtime/web/fault_web.c runtime/web/json_web.c runtime/web/xmlwriter_web.c \
                    runtime/web/dev_web.c runtime/web/gemm_price.c runtime/web/gemm_simd.c runtime/web/gemm_bench.c runtime/web/gemm_check.c runtime/web/backend_web.c \
                    runtime/web/fiber_emscripten.c runtime/web/outfile_web.c runtime/web/labrun_web.c \
                    runtime/web/i18n_web.c
WEB_LAB_DIRS  := $(filter labs/%,$(LAB_DIRS))
# libqz but its output files (outfile.c, outdir.c: Linux renames and signals):
# outfile_web.c has what the module calls of it.
WEB_C_SRCS    := $(WEB_RUNTIME_SRCS) $(filter-out grammar/outfile.c grammar/outdir.c,$(LIBQZ_SRCS)) $(foreach d,$(LAB_DIRS),$(call lab_srcs,$(d)))
WEB_GEN_SRCS  := $(LIBQZ_GEN) $(LAB_TABLE) $(foreach d,$(LAB_DIRS),$(call lab_limits_c,$(d)))
web_obj        = $(patsubst %.c,$(WEB)/obj/%.o,$(patsubst $(BUILD)/%,%,$(1)))
WEB_OBJS      := $(call web_obj,$(WEB_C_SRCS) $(WEB_GEN_SRCS))

WEB_CFLAGS  := -O2 -msimd128 -std=c11 -D_GNU_SOURCE -DQZ_VERSION='"$(VERSION)"' -DQZ_LABDIR='"/labs"' \
               -Iruntime/web/include -Iruntime/web -Igrammar -I$(BUILD)/gen -Iruntime \
               -I$(BUILD)/gen/labs -Itests/labs -Wall -Wno-unused-parameter -Wno-unused-function
# Asyncify: fibers (ranks taking turns) unwind and rewind the stack.  The
# .wasm apart, so that the page compiles it once for every run (the worker
# gets the compiled module through emscripten's instantiateWasm hook; node,
# tests/web/gemm_check.js, reads the file beside labs.js).
WEB_LDFLAGS := -O2 -msimd128 -sASYNCIFY -sMODULARIZE=1 -sEXPORT_NAME=LabrunModule \
               -sENVIRONMENT=worker,node -sINVOKE_RUN=0 -sEXIT_RUNTIME=0 -sALLOW_MEMORY_GROWTH=1 \
               -sMAXIMUM_MEMORY=2147483648 -sTOTAL_STACK=4194304 \
               -sEXPORTED_RUNTIME_METHODS=callMain,FS \
               $(foreach d,$(WEB_LAB_DIRS),--embed-file $(d)/lab.qz@/labs/$(notdir $(d))/lab.qz) \
               $(foreach l,$(I18N_LANGS),--embed-file $(BUILD)/locale/$(l)/LC_MESSAGES/labrun.mo@/locale/$(l)/labrun.mo)

ifeq ($(WEB_FROM),$(BUILD))
# Each object lists the headers it read (-MMD), so a changed header rebuilds
# what includes it: a stale object links and fails at run time.
$(WEB)/obj/%.o: %.c | $(GEN_HEADERS)
	@mkdir -p $(@D)
	$(EMCC_RUN) $(WEB_CFLAGS) -MMD -MP -c $< -o $@
$(WEB)/obj/gen/%.o: $(BUILD)/gen/%.c | $(GEN_HEADERS)
	@mkdir -p $(@D)
	$(EMCC_RUN) $(WEB_CFLAGS) -MMD -MP -c $< -o $@
-include $(shell find $(WEB)/obj -name '*.d' 2>/dev/null)
# A lab's objects need its generated header first.
$(foreach d,$(LAB_DIRS),$(eval $(call web_obj,$(call lab_srcs,$(d))): | $(call lab_header,$(d))))

# The messages' catalogues, labrun's own (mk/i18n.mk), read by i18n_web.c.
$(WEB_JS): $(WEB_OBJS) $(foreach d,$(WEB_LAB_DIRS),$(d)/lab.qz) $(LABRUN_MOS) mk/web.mk
	@mkdir -p $(@D)
	$(EMCC_RUN) $(WEB_LDFLAGS) $(WEB_OBJS) -o $@
$(WEB_WASM): $(WEB_JS)

$(WEB_MODULE): $(WEB_JS) $(WEB_WASM) runtime/web/labworker.js mk/web.mk
	{ echo '/* The labs in WebAssembly and the worker that runs them (built by mk/web.mk). */'; \
	  printf "window.labrunWasm = '"; base64 -w0 $(WEB_WASM); echo "';"; \
	  echo 'window.labrunWorkerBody = function () {'; cat $(WEB_JS) runtime/web/labworker.js; echo '};'; } > $@.tmp
	mv $@.tmp $@
else
# The plain build makes (or finds up to date) the module this build carries.
.PHONY: web-from
web-from:
	$(MAKE) BUILD=$(WEB_FROM) SAN= OPT=$(OPT_PLAIN) web
$(WEB_JS) $(WEB_WASM) $(WEB_MODULE): web-from ;
endif

# quizc carries the module as a resource table (compiler/live_labs.c has the
# empty stand-in that a quizc built without emcc keeps).
LIVE_GEN := $(BUILD)/gen/live_labs_res.c

.PHONY: web
ifneq ($(HAVE_EMCC),)
web: $(WEB_MODULE)
all: web
QUIZC_SRCS += $(LIVE_GEN)
$(LIVE_GEN): $(BUILD)/tools/embed $(WEB_MODULE)
	@mkdir -p $(@D)
	$(BUILD)/tools/embed --table scorm_live_labs $@ labrun-module.js=$(WEB_MODULE)
PACKED_FILES += labrun-module.js=$(WEB_MODULE)
PACKED_DEPS  += $(WEB_MODULE)
# The web GEMM against its fp64 reference, in node (a step of `make check`).
TEST_BINS += $(BUILD)/tests/web/gemm
$(BUILD)/tests/web/gemm: tests/web/gemm_check.js $(WEB_JS)
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec node tests/web/gemm_check.js %s\n' '$(WEB_JS)' > $@ && chmod +x $@
# --lang in the module: a lab's words in Indonesian from the embedded catalogue (a step of `make check`).
TEST_BINS += $(BUILD)/tests/web/lang
$(BUILD)/tests/web/lang: tests/web/lang_check.js $(WEB_JS)
	@mkdir -p $(@D)
	printf '#!/bin/sh\nexec node tests/web/lang_check.js %s\n' '$(WEB_JS)' > $@ && chmod +x $@
else
web:
	@echo "web: emcc not found (apt-get install emscripten): the quiz page has no Run button" >&2
endif
