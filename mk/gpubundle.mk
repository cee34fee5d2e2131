# make gpu-bundle: $(BUILD)/gpu-bundle, the GPU check ready to copy to a
# machine with NVIDIA GPUs and no build tools (doc/backends.md, "Tests").
# Not part of `make` or `make check`: it builds labrun and the GPU tests
# twice more, with NCCL and without (for a machine that lacks libnccl), both
# without MPI (the GPU machine has no Open MPI to load), then packs them with
# scripts/gpu-bundle.sh under a size limit.

GPU_BUNDLE         := $(BUILD)/gpu-bundle
GPU_BUNDLE_MAX_MIB := 60
GPU_BUNDLE_BINS     = labrun tests/gpu/dev_cuda tests/gpu/comm_cuda tests/gpu/gpu_info

.PHONY: gpu-bundle
ifneq ($(strip $(NVCC)),)
gpu-bundle:
	$(MAKE) BUILD=$(BUILD)/gpu-bundle-build/nccl MPICC= \
	    $(addprefix $(BUILD)/gpu-bundle-build/nccl/,$(GPU_BUNDLE_BINS) $(if $(HAVE_NCCL),tests/gpu/callcheck))
	$(MAKE) BUILD=$(BUILD)/gpu-bundle-build/nonccl MPICC= HAVE_NCCL= \
	    $(addprefix $(BUILD)/gpu-bundle-build/nonccl/,$(GPU_BUNDLE_BINS))
	scripts/gpu-bundle.sh $(GPU_BUNDLE) $(BUILD)/gpu-bundle-build/nccl $(BUILD)/gpu-bundle-build/nonccl $(GPU_BUNDLE_MAX_MIB)
else
gpu-bundle:
	@echo "gpu-bundle: needs nvcc (the bundle's binaries use CUDA)" >&2; exit 1
endif

# The check's script without a GPU (a step of `make check`): every GPU step
# skipped with its reason, the cpu steps passing, results.json valid.
GPU_DRY_STEP := $(BUILD)/tests/gpu/run-dry
$(GPU_DRY_STEP): tests/gpu/dry.sh tests/gpu/run.sh $(LABRUN) $(if $(strip $(NVCC)),$(GPU_INFO))
	@mkdir -p $(@D)
	@printf '#!/bin/sh\nexec tests/gpu/dry.sh "%s"\n' "$(BUILD)" > $@
	@chmod +x $@
CHECK_STEPS += $(GPU_DRY_STEP)
check: $(GPU_DRY_STEP)
