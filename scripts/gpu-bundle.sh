#!/usr/bin/env bash
# Fill the GPU bundle (make gpu-bundle): the binaries of two builds, the labs,
# the non-CUDA shared libraries they need and the check's script, so that a
# GPU machine with a driver, the CUDA runtime and cuBLAS but no build tools
# runs the check from the folder alone.
#
#     scripts/gpu-bundle.sh BUNDLE NCCL_BUILD NONCCL_BUILD MAX_MIB
#
# The CUDA libraries (libcuda, libcudart, libcublas, libcublasLt, libnccl) and
# glibc's own (libc, libm, libpthread, libdl, librt, libresolv, ld-linux) come
# from the GPU machine: they must match its driver and its C library.  The
# others travel in lib.tar.gz (gzip: OpenBLAS and ICU's data are most of it),
# which run.sh unpacks.  libstdc++ and libgcc_s go in its gcc/ folder: they
# may need a newer glibc than the rest, and every machine with CUDA has its
# own, so run.sh uses them only when the machine's glibc is new enough.
# Fails when the folder would pass MAX_MIB.
set -eu
bundle=$1 with=$2 without=$3 max_mib=$4
rm -rf "$bundle"
mkdir -p "$bundle/bin" "$bundle/bin-nonccl" "$bundle/labs"
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
mkdir "$stage/gcc"

copy_bins() {   # BUILD DEST
    cp "$1/labrun" "$2/"
    for t in dev_cuda comm_cuda callcheck gpu_info; do
        [ -x "$1/tests/gpu/$t" ] && cp "$1/tests/gpu/$t" "$2/"
    done
    return 0
}
copy_bins "$with" "$bundle/bin"
copy_bins "$without" "$bundle/bin-nonccl"
cp -r labs/. "$bundle/labs/"
cp tests/gpu/run.sh "$bundle/run.sh"

skip='^(linux-vdso|libcuda\.|libcudart\.|libcublas\.|libcublasLt\.|libnccl\.|libc\.|libm\.|libpthread\.|libdl\.|librt\.|libresolv\.|libutil\.|ld-linux)'
for b in "$bundle"/bin/* "$bundle"/bin-nonccl/*; do
    ldd "$b" | awk '/=>/ && $3 ~ /^\// { print $1, $3 }'
done | sort -u | while read -r name path; do
    case $name in
    libstdc++.*|libgcc_s.*) cp -L "$path" "$stage/gcc/$name" ;;
    *) grep -qE "$skip" <<<"$name" || cp -L "$path" "$stage/$name" ;;
    esac
done
tar czf "$bundle/lib.tar.gz" -C "$stage" .

# The newest glibc symbol version the files need, for run.sh to compare.
glibc_of() { for f in "$@"; do objdump -T "$f" 2>/dev/null; done |
             grep -oE 'GLIBC_[0-9]+\.[0-9]+' | sed 's/GLIBC_//' | sort -uV | tail -1; }
glibc=$(glibc_of "$bundle"/bin/* "$bundle"/bin-nonccl/* "$stage"/*.so*)
glibc_gcc=$(glibc_of "$stage"/gcc/*)
{
    echo "built=$(date -u '+%Y-%m-%d %H:%M UTC')"
    echo "commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)"
    echo "glibc_needed=$glibc"
    echo "glibc_needed_gcc=$glibc_gcc"
    echo "libs=$(cd "$stage" && ls -d *.so* gcc/* | paste -sd' ' -)"
} >"$bundle/MANIFEST"

bytes=$(du -sb "$bundle" | cut -f1)
mib=$(awk -v b="$bytes" 'BEGIN { printf "%.1f", b / 1048576 }')
echo "gpu-bundle: $bundle, $mib MiB ($(cd "$stage" && ls -d *.so* gcc/* | wc -l) libraries in lib.tar.gz, glibc >= $glibc needed)"
if awk -v b="$bytes" -v m="$max_mib" 'BEGIN { exit !(b > m * 1048576) }'; then
    echo "gpu-bundle: error: $mib MiB is over the $max_mib MiB limit" >&2
    exit 1
fi
