# The cuda backend: built when nvcc is found (on PATH, else /usr/local/cuda/bin),
# with NCCL when nccl.h and libnccl are beside it.  `make NVCC=` builds without it,
# `make HAVE_NCCL=` without NCCL.
#
# Host code (runtime/cuda/*.c) is compiled by $(CC) like the rest, so it gets
# our warnings and, with SAN=1, the sanitizers; kernels (*.cu) by nvcc for
# sm_90 (H100/H200) plus compute_80 PTX that newer GPUs compile at load time,
# never with sanitizer flags (nvcc objects link into sanitized programs as they are).

NVCC ?= $(or $(shell command -v nvcc 2>/dev/null),$(wildcard /usr/local/cuda/bin/nvcc))
NVCC_ARCH ?= -gencode arch=compute_90,code=sm_90 -gencode arch=compute_80,code=compute_80

ifneq ($(strip $(NVCC)),)
CUDA_HOME  ?= $(patsubst %/bin/nvcc,%,$(realpath $(NVCC)))
CUDA_LIBDIR := $(firstword $(wildcard $(CUDA_HOME)/lib64/libcudart.so $(CUDA_HOME)/lib/libcudart.so))
CUDA_LIBDIR := $(patsubst %/,%,$(dir $(CUDA_LIBDIR)))
NCCL_H     := $(firstword $(wildcard $(CUDA_HOME)/include/nccl.h /usr/include/nccl.h))
NCCL_LIB   := $(firstword $(wildcard $(CUDA_LIBDIR)/libnccl.so /usr/lib/x86_64-linux-gnu/libnccl.so))
HAVE_NCCL  := $(if $(and $(NCCL_H),$(NCCL_LIB)),yes)
NCCL_VERSION := $(if $(HAVE_NCCL),$(shell sed -nE 's/^\#define NCCL_(MAJOR|MINOR|PATCH) +([0-9]+).*/\2/p' $(NCCL_H) | paste -sd.))
$(info gpu: nvcc ✓ $(NVCC) ($(shell $(NVCC) --version | sed -nE 's/.*release ([0-9.]+).*/\1/p')))
$(info gpu: NCCL $(if $(HAVE_NCCL),✓ $(NCCL_VERSION) $(NCCL_H),✗ $(if $(and $(NCCL_H),$(NCCL_LIB)),(HAVE_NCCL= was given),(no nccl.h and libnccl.so beside CUDA)): ranks beyond one share a GPU))
else
HAVE_NCCL :=
$(info gpu: nvcc ✗ (not on PATH nor in /usr/local/cuda/bin, or NVCC= was given): labrun --backend cuda will say it is not built in)
$(info gpu: NCCL ✗ (needs nvcc))
endif

ifneq ($(strip $(NVCC)),)
CUDA_C_SRCS  := runtime/cuda/dev_cuda.c runtime/cuda/comm_shared_cuda.c runtime/cuda/stage.c \
                runtime/cuda/backend_cuda.c $(if $(HAVE_NCCL),runtime/cuda/comm_nccl.c runtime/cuda/nccl_world.c)
CUDA_CU_SRCS := runtime/cuda/kernels.cu
CUDA_CU_OBJS := $(patsubst %.cu,$(BUILD)/obj/%.cu.o,$(CUDA_CU_SRCS))
# callcheck.c serves the MPI backend too; mk/mpi.mk adds it only when this file did not.
CHECK_OBJ    := $(call obj,runtime/callcheck.c)
CUDA_OBJS    := $(call obj,$(CUDA_C_SRCS)) $(CUDA_CU_OBJS) $(CHECK_OBJ)
CUDA_CPPFLAGS := -isystem $(CUDA_HOME)/include -Iruntime/cuda $(if $(HAVE_NCCL),-DHAVE_NCCL)
CUDA_LIBS    := -L$(CUDA_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) $(if $(HAVE_NCCL),-lnccl) -lcublas -lcudart -lstdc++
NVCCFLAGS    ?= -O2 -g -std=c++17 $(NVCC_ARCH)

$(call obj,$(CUDA_C_SRCS)): CPPFLAGS += $(CUDA_CPPFLAGS)

$(BUILD)/obj/%.cu.o: %.cu
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) $(filter -D% -I%,$(CPPFLAGS)) $(CUDA_CPPFLAGS) -MMD -MP -c $< -o $@

# labrun gets the real backend_cuda, which replaces the stand-in of backend.c.
$(LABRUN): $(CUDA_OBJS)
$(LABRUN): LDLIBS += $(CUDA_LIBS)
endif

# GPU tests: built and run wherever nvcc is; each test skips with the driver's
# reason where there is no GPU.
ifneq ($(strip $(NVCC)),)
GPU_TEST_OBJS := $(CUDA_OBJS) $(RUNTIME_CORE_OBJS) $(UTIL_OBJS)
$(call obj,tests/gpu/test_dev_cuda.c tests/gpu/test_comm_cuda.c tests/gpu/test_callcheck.c): CPPFLAGS += $(CUDA_CPPFLAGS)
$(eval $(call criterion_test,gpu/dev_cuda,tests/gpu/test_dev_cuda.c,$(GPU_TEST_OBJS),$(RUNTIME_LIBS) $(CUDA_LIBS)))
$(eval $(call criterion_test,gpu/comm_cuda,tests/gpu/test_comm_cuda.c,$(GPU_TEST_OBJS),$(RUNTIME_LIBS) $(CUDA_LIBS)))
$(if $(HAVE_NCCL),$(eval $(call criterion_test,gpu/callcheck,tests/gpu/test_callcheck.c,$(CHECK_OBJ),$(CUDA_LIBS))))

# The GPU check's first call (tests/gpu/run.sh): driver and runtime versions, each GPU's facts.
GPU_INFO := $(BUILD)/tests/gpu/gpu_info
$(call obj,tests/gpu/gpu_info.c): CPPFLAGS += $(CUDA_CPPFLAGS)
$(GPU_INFO): $(call obj,tests/gpu/gpu_info.c)
	@mkdir -p $(@D)
	$(CC) $(LDFLAGS) $^ -o $@ -L$(CUDA_LIBDIR) -Wl,-rpath,$(CUDA_LIBDIR) -lcudart
endif
