#!/usr/bin/env bash
# The GPU check: run what a machine with NVIDIA GPUs can tell, build nothing.
#
#     run.sh [--dry-run] [--require-gpu] [OUTDIR]     (OUTDIR: $OUT when set, else build/gpu-results)
#
# It runs from the folder `make gpu-bundle` fills (build/gpu-bundle: bin/,
# bin-nonccl/, labs/, lib.tar.gz, this script; copy it to the GPU machine)
# or from the source tree after `make` (build/labrun, build/tests/gpu/*).
#
#   1. the driver against the CUDA runtime (nvidia-smi, then gpu_info: the
#      versions and each GPU), and where libcudart, libcublas and libnccl
#      are (CUDA's lib64, ldconfig, Python's nvidia-* packages); without
#      NCCL the labrun built without it runs, and NCCL steps are skipped;
#   2. the bundle's binaries on the cpu backend (they load, the labs pass);
#   3. the GPU unit tests (NCCL_DEBUG=WARN);
#   4. every lab at small sizes with all ranks on one GPU (CUDA_VISIBLE_DEVICES=0,
#      4 to 8 ranks: device copies), and with a GPU per rank (NCCL) where
#      there is more than one GPU; tensor-split and bubble again with
#      NCCL_P2P_DIRECT_DISABLE=1; bubble 1F1B over 8 stages;
#   5. a fault injected on rank 1: the run must end in under 20 s with status 1;
#   6. tensor-split MLP throughput at hidden 4096 and 8192 against the same
#      layer unsplit on one GPU (one cuBLAS GEMM pair), and against the GPU's
#      fp32 peak (modelled from its SMs and clock);
#   7. an all-reduce sweep to 256 MiB (algbw and busbw as nccl-tests report them).
#
# Every step has its own hard limit: `timeout -s KILL` kills the step's whole
# process group, and the step is recorded as timed out.  The whole check
# stops starting steps after 330 s, so it ends within 6 minutes on one GPU;
# it prints how long 8 GPUs would take, estimated from the steps it timed.
# Writes OUTDIR/results.md and OUTDIR/results.json, and each step's log in
# OUTDIR/logs.  Exit status 1 when a step failed or timed out (with
# --require-gpu, also when no GPU could be used), else 0; --dry-run skips
# every GPU step, saying so.
set -u
here=$(cd "$(dirname "$0")" && pwd)
dry=0 require=0 out=
for a in "$@"; do
    case $a in
    --dry-run) dry=1 ;;
    --require-gpu) require=1 ;;
    -*) echo "usage: run.sh [--dry-run] [--require-gpu] [OUTDIR]" >&2; exit 2 ;;
    *) out=$a ;;
    esac
done
out=${out:-${OUT:-build/gpu-results}}
mkdir -p "$out/logs" || exit 1
out=$(cd "$out" && pwd)
start=$(date +%s.%N)
budget=330

# ---- Where the binaries are -------------------------------------------------
if [ -x "$here/bin/labrun" ]; then
    layout=bundle
    bin=$here/bin nonccl_bin=$here/bin-nonccl labs=$here/labs
else
    layout=tree
    root=$(cd "$here/../.." && pwd)
    build=${GPU_CHECK_BUILD:-$root/build}
    bin=$build/tests/gpu nonccl_bin= labs=$root/labs
fi
labrun_of() { if [ "$layout" = bundle ]; then echo "$1/labrun"; else echo "$build/labrun"; fi; }

# ---- The results ------------------------------------------------------------
steps=()            # name|status|seconds|limit|detail|log
declare -A secs_of  # step name -> seconds, for the 8-GPU estimate
estimate_extra=0    # seconds the NCCL steps skipped here would take (their twins' times)
now() { date +%s.%N; }
elapsed() { awk -v a="$start" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }'; }
esc() { printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' | tr '\n\t\r' '   '; }

# The log of a step, relative to OUTDIR.
logname() { printf 'logs/%s.log' "$(printf '%s' "$1" | tr -c 'A-Za-z0-9_.=-' '_')"; }

record() {   # NAME STATUS SECONDS LIMIT DETAIL LOG
    steps+=("$1|$2|$3|$4|${5//|/\/}|$6")
    printf '%-64s %-9s %6s s  %s\n' "$1" "$2" "$3" "$5"
}

gpu_why=            # why GPU steps cannot run here ("" when they can)
nccl_why=           # why NCCL steps cannot run ("" when they can)
ngpu=0

# step NAME LIMIT NEED CMD...: NEED is cpu, gpu (one GPU) or nccl (more than one
# GPU and NCCL).  The caller may set expect_rc (default 0), within (seconds the
# step must end in) and twin (the shared-GPU step that prices a skipped NCCL one).
step() {
    local name=$1 limit=$2 need=$3; shift 3
    local log
    log=$(logname "$name")
    local why=
    case $need in
    gpu) why=$gpu_why ;;
    nccl) why=${gpu_why:-$nccl_why} ;;
    esac
    [ -z "$why" ] && [ "$(elapsed)" -gt "$budget" ] && why="the check's 6-minute budget is spent"
    if [ -n "$why" ]; then
        record "$name" SKIP 0 "$limit" "$why" ""
        if [ -n "${twin:-}" ] && [ -n "${secs_of[$twin]:-}" ]; then
            estimate_extra=$(awk -v a="$estimate_extra" -v b="${secs_of[$twin]}" 'BEGIN { print a + b }')
        fi
        return 0
    fi
    local t0 rc secs status detail
    t0=$(now)
    # timeout puts the step in a process group of its own and KILLs all of it at the limit.
    timeout -s KILL "$limit" "$@" >"$out/$log" 2>&1 </dev/null
    rc=$?
    secs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
    secs_of[$name]=$secs
    detail=$(grep -aE 'Synthesis|FAIL |^labrun: error|error:|skipped:' "$out/$log" | head -3 | paste -sd ' ' | cut -c1-300)
    if [ $rc -eq 137 ] && awk -v s="$secs" -v l="$limit" 'BEGIN { exit !(s >= l - 0.5) }'; then
        status=TIMEOUT detail="timed out: killed at the ${limit} s limit. $detail"
    elif [ $rc -ne "${expect_rc:-0}" ]; then
        status=FAIL detail="exit status $rc (want ${expect_rc:-0}). $detail"
    elif [ -n "${within:-}" ] && ! awk -v s="$secs" -v w="$within" 'BEGIN { exit !(s < w) }'; then
        status=FAIL detail="ended after $secs s (want under $within s). $detail"
    elif grep -qa '^\[SKIP\]\|Skipped: [1-9]' "$out/$log" && ! grep -qa '^\[PASS\]' "$out/$log"; then
        status=SKIP
    else
        status=PASS
    fi
    record "$name" "$status" "$secs" "$limit" "$detail" "$log"
}

# A number from a labrun --json report ("" when absent).
metric() { grep -oE "\"$2\": *[-0-9.eE+]+" "$1" 2>/dev/null | head -1 | sed -E 's/.*: *//'; }

# ---- 1. Libraries, driver and runtime -----------------------------------------
libdir=
if [ "$layout" = bundle ]; then
    # The non-CUDA libraries travel compressed; unpack them beside the bundle, or in /tmp.
    libdir=$here/lib
    if [ ! -f "$libdir/.unpacked" ]; then
        { mkdir -p "$libdir" && [ -w "$libdir" ]; } 2>/dev/null || libdir=${TMPDIR:-/tmp}/gpu-bundle-lib.$(id -u)
        mkdir -p "$libdir"
        if tar xzf "$here/lib.tar.gz" -C "$libdir" 2>/dev/null ||
           python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$here/lib.tar.gz" "$libdir"; then
            touch "$libdir/.unpacked"
        else
            echo "run.sh: cannot unpack $here/lib.tar.gz (tar and python3 both failed)" >&2
        fi
    fi
fi

# Folders that may hold the CUDA runtime, cuBLAS and NCCL, most likely first.
lib_dirs() {
    local d
    for d in ${CUDA_HOME:+$CUDA_HOME/lib64} /usr/local/cuda/lib64 /usr/local/cuda-*/lib64 \
             /usr/local/cuda*/targets/*/lib /usr/lib/x86_64-linux-gnu /usr/lib64; do
        [ -d "$d" ] && echo "$d"
    done
    ldconfig -p 2>/dev/null | awk -F'=> ' '/lib(cudart|cublas|cublasLt|nccl)\.so/ { print $2 }' | xargs -r -n1 dirname
    python3 - 2>/dev/null <<'EOF'
import glob, importlib, os, site
for m in ("nvidia.nccl", "nvidia.cublas", "nvidia.cuda_runtime", "nvidia.cu13"):
    try:
        for d in importlib.import_module(m).__path__:
            print(os.path.join(d, "lib"))
    except Exception:
        pass
try:
    roots = site.getsitepackages() + [site.getusersitepackages()]
except Exception:
    roots = []
for s in roots:
    for d in glob.glob(os.path.join(s, "nvidia", "*", "lib")):
        print(d)
EOF
    for d in /usr/lib/python3*/site-packages/nvidia/*/lib /usr/local/lib/python3*/*-packages/nvidia/*/lib \
             "$HOME"/.local/lib/python3*/site-packages/nvidia/*/lib /opt/conda/lib/python3*/site-packages/nvidia/*/lib; do
        [ -d "$d" ] && echo "$d"
    done
}
mapfile -t candidates < <(lib_dirs | awk '!seen[$0]++')
find_lib() { local d; for d in "${candidates[@]}"; do [ -e "$d/$1" ] && { echo "$d"; return 0; }; done; return 1; }

ldpath=${libdir}
missing=()
for l in libcudart.so.13 libcublas.so.13 libcublasLt.so.13 libnccl.so.2; do
    if d=$(find_lib $l); then
        record "find $l" PASS 0 0 "$d" ""
        case ":$ldpath:" in *":$d:"*) ;; *) ldpath=${ldpath:+$ldpath:}$d ;; esac
    else
        missing+=("$l")
        record "find $l" SKIP 0 0 "not in ${#candidates[@]} folders searched (CUDA lib64, ldconfig, Python nvidia-* packages)" ""
    fi
done
export LD_LIBRARY_PATH=${ldpath}${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}

labrun=$(labrun_of "$bin")
tbin=$bin
if printf '%s\n' "${missing[@]}" | grep -q nccl; then
    nccl_why="NCCL is missing (libnccl.so.2 not found)"
    if [ -n "$nonccl_bin" ]; then
        labrun=$(labrun_of "$nonccl_bin") tbin=$nonccl_bin
        echo "NCCL is missing: the labrun built without NCCL runs the shared-GPU steps"
    fi
fi
if printf '%s\n' "${missing[@]}" | grep -q 'cudart\|cublas'; then
    gpu_why="the CUDA 13 runtime or cuBLAS is missing (${missing[*]})"
fi

if [ "$layout" = bundle ] && [ -f "$here/MANIFEST" ]; then
    need=$(sed -n 's/^glibc_needed=//p' "$here/MANIFEST")
    have=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{ print $2 }')
    need_gcc=$(sed -n 's/^glibc_needed_gcc=//p' "$here/MANIFEST")
    have=$(getconf GNU_LIBC_VERSION 2>/dev/null | awk '{ print $2 }')
    at_least() { [ -z "$1" ] || [ -z "$have" ] || [ "$(printf '%s\n%s\n' "$1" "$have" | sort -V | head -1)" = "$1" ]; }
    if ! at_least "$need"; then
        record "glibc $have >= $need" FAIL 0 0 "the bundle needs glibc $need; this machine has $have" ""
        gpu_why=${gpu_why:-"glibc $have is older than the $need the bundle was built against"}
    fi
    # The bundle's libstdc++ only where this glibc can load it; else the machine's own.
    if at_least "$need_gcc"; then
        export LD_LIBRARY_PATH=$libdir/gcc:$LD_LIBRARY_PATH
    else
        echo "glibc $have < $need_gcc: the machine's own libstdc++ and libgcc_s are used"
    fi
fi

unresolved=$(ldd "$labrun" 2>&1 | awk '/not found/ { print $1 }' | paste -sd' ' -)
if [ -n "$unresolved" ]; then
    record "labrun's libraries resolve" FAIL 0 0 "not found: $unresolved" ""
    gpu_why=${gpu_why:-"labrun cannot load: $unresolved not found"}
fi

machine="$(uname -n), $(nproc) cores"
if command -v nvidia-smi >/dev/null; then
    smi=$(nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader 2>&1)
    smi_rc=$?
else
    smi="nvidia-smi is not on PATH (no NVIDIA driver here?)" smi_rc=127
fi
if [ $smi_rc -eq 0 ]; then
    smi_cuda=$(nvidia-smi 2>/dev/null | grep -oE 'CUDA Version: *[0-9.]+' | head -1)
    record "nvidia-smi" PASS 0 10 "$(printf '%s' "$smi" | head -1), ${smi_cuda:-CUDA version not shown}" ""
    machine="$machine; $(printf '%s' "$smi" | cut -d, -f2 | sed -E 's/^ +//' | sort | uniq -c | sed -E 's/^ +//; s/^([0-9]+) /\1 x /' | paste -sd';' -)"
else
    record "nvidia-smi" SKIP 0 10 "$(printf '%s' "$smi" | head -1 | cut -c1-200)" ""
fi

info=$(timeout -s KILL 30 "$tbin/gpu_info" 2>&1)
info_rc=$?
printf '%s\n' "$info" >"$out/logs/gpu_info.log"
versions=$(printf '%s' "$info" | head -1)
if [ $info_rc -eq 0 ]; then
    ngpu=$(printf '%s' "$info" | sed -n 's/^gpus //p')
    record "gpu_info: driver against runtime" PASS 0 30 "$versions, $ngpu GPU(s)" logs/gpu_info.log
else
    reason=$(printf '%s' "$info" | sed -n 's/^error: //p' | head -1)
    reason=${reason:-$(printf '%s' "$info" | tail -1)}
    record "gpu_info: driver against runtime" SKIP 0 30 "$versions: ${reason:-gpu_info did not run}" logs/gpu_info.log
    gpu_why=${gpu_why:-"no usable GPU: ${reason:-gpu_info did not run} ($versions)"}
fi
[ "$dry" -eq 1 ] && gpu_why="dry run (--dry-run): GPU steps not run"
[ "${ngpu:-0}" -lt 2 ] && nccl_why=${nccl_why:-"a GPU per rank needs more than one GPU (this machine: ${ngpu:-0})"}
peak=$(printf '%s' "$info" | sed -n 's/.*fp32_peak_gflops=\([0-9]*\).*/\1/p' | head -1)
echo "machine: $machine"

# ---- 2. The binaries on the cpu backend ----------------------------------------
# Small sizes shared by every path: LAB ARGS... (ranks follow the path).
lab_args() {   # LAB RANKS
    case $1 in
    activations) echo "--stages $2 --microbatches 4 --layers 8" ;;
    allreduce) echo "--ranks $2 --maxbytes 1048576" ;;
    bubble) echo "--stages $2 --microbatches 16 --schedule gpipe" ;;
    memory) echo "--tp 2 --pp $(($2 / 2 > 0 ? $2 / 2 : 1)) --layers 8 --hidden 256 --heads 4 --seq 64 --vocab 1000 --microbatches 4" ;;
    tensor-split) echo "--ranks $2 --mode mlp" ;;
    *) echo "" ;;
    esac
}
all_labs=$(cd "$labs" && ls -d */ | tr -d /)
step "labrun --list" 20 cpu "$labrun" -L "$labs" --list
for lab in $all_labs; do
    # shellcheck disable=SC2046
    step "lab $lab, 4 ranks (cpu)" 60 cpu "$labrun" "$labs/$lab" $(lab_args "$lab" 4) --quiet --json "$out/logs/$lab.cpu.json"
done

# ---- 3. GPU unit tests -------------------------------------------------------------
step "unit tests: dev_cuda" 90 gpu env NCCL_DEBUG=WARN "$tbin/dev_cuda" --verbose
step "unit tests: comm_cuda" 150 gpu env NCCL_DEBUG=WARN "$tbin/comm_cuda" --verbose

# ---- 4. Every lab on one shared GPU, then with a GPU per rank --------------------
shared="env CUDA_VISIBLE_DEVICES=0 NCCL_DEBUG=WARN"
for lab in $all_labs; do
    r=8; [ "$lab" = activations ] && r=4
    # shellcheck disable=SC2046
    step "lab $lab, $r ranks on GPU 0 (shared)" 60 gpu $shared "$labrun" "$labs/$lab" $(lab_args "$lab" $r) --backend cuda --json "$out/logs/$lab.shared.json"
done
nr=$(( ngpu > 8 ? 8 : ngpu ))
[ "$nr" -lt 2 ] && nr=8
for lab in $all_labs; do
    r=$nr; [ "$lab" = activations ] && [ $r -gt 4 ] && r=4
    rs=8; [ "$lab" = activations ] && rs=4
    # shellcheck disable=SC2046
    twin="lab $lab, $rs ranks on GPU 0 (shared)" \
    step "lab $lab, $r ranks, a GPU each (nccl)" 90 nccl env NCCL_DEBUG=WARN "$labrun" "$labs/$lab" $(lab_args "$lab" $r) --backend cuda --json "$out/logs/$lab.nccl.json"
done
for lab in tensor-split bubble; do
    # shellcheck disable=SC2046
    twin="lab $lab, 8 ranks on GPU 0 (shared)" \
    step "lab $lab, $nr ranks (nccl, NCCL_P2P_DIRECT_DISABLE=1)" 90 nccl env NCCL_DEBUG=WARN NCCL_P2P_DIRECT_DISABLE=1 "$labrun" "$labs/$lab" $(lab_args "$lab" $nr) --backend cuda --json "$out/logs/$lab.nccl-p2p-off.json"
done
step "bubble 1f1b, 8 stages on GPU 0 (shared)" 90 gpu $shared "$labrun" "$labs/bubble" --stages 8 --microbatches 16 --schedule 1f1b --backend cuda --json "$out/logs/bubble.1f1b.shared.json"
# Stages heavy enough that the GEMMs, not the copies between them, set the bubble.
step "bubble gpipe, 4 stages, hidden 4096, batch 1024 on GPU 0 (shared)" 90 gpu $shared "$labrun" "$labs/bubble" --stages 4 --microbatches 8 --hidden 4096 --batch 1024 --schedule gpipe --backend cuda --json "$out/logs/bubble.big.shared.json"
twin="bubble 1f1b, 8 stages on GPU 0 (shared)" \
step "bubble 1f1b, 8 stages, a GPU each (nccl)" 90 nccl env NCCL_DEBUG=WARN "$labrun" "$labs/bubble" --stages "$nr" --microbatches 16 --schedule 1f1b --backend cuda --json "$out/logs/bubble.1f1b.nccl.json"
# The interleaved schedule sends from the last stage back to the first; ZB-H1 splits the backward.
step "bubble interleaved v=2, 4 stages on GPU 0 (shared)" 90 gpu $shared "$labrun" "$labs/bubble" --stages 4 --microbatches 8 --schedule interleaved --chunks 2 --backend cuda --json "$out/logs/bubble.interleaved.shared.json"
step "bubble zb-h1, 4 stages on GPU 0 (shared)" 90 gpu $shared "$labrun" "$labs/bubble" --stages 4 --microbatches 8 --schedule zb-h1 --backend cuda --json "$out/logs/bubble.zbh1.shared.json"
twin="bubble interleaved v=2, 4 stages on GPU 0 (shared)" \
step "bubble interleaved v=2, a GPU each (nccl)" 90 nccl env NCCL_DEBUG=WARN "$labrun" "$labs/bubble" --stages "$nr" --microbatches $((2 * nr)) --schedule interleaved --chunks 2 --backend cuda --json "$out/logs/bubble.interleaved.nccl.json"
twin="bubble zb-h1, 4 stages on GPU 0 (shared)" \
step "bubble zb-h1, a GPU each (nccl)" 90 nccl env NCCL_DEBUG=WARN "$labrun" "$labs/bubble" --stages "$nr" --microbatches $((2 * nr)) --schedule zb-h1 --backend cuda --json "$out/logs/bubble.zbh1.nccl.json"

# ---- 5. A fault on rank 1: every rank stops, status 1, well before the limit ---------
if [ "${ngpu:-0}" -gt 1 ] && [ -z "$nccl_why" ]; then
    fault_env="env NCCL_DEBUG=WARN" fault_path="nccl, $(( ngpu > 4 ? 4 : ngpu )) ranks" fr=$(( ngpu > 4 ? 4 : ngpu ))
else
    fault_env=$shared fault_path="shared GPU, 4 ranks" fr=4
fi
expect_rc=1 within=20 \
step "fault on rank 1 ends in < 20 s with status 1 ($fault_path)" 30 gpu $fault_env "$labrun" "$labs/tensor-split" --ranks "$fr" --backend cuda --inject-fault error@1 --timeout 15

# ---- 6. Tensor-split throughput against the unsplit layer ---------------------------
tr=4; [ -z "$nccl_why" ] && tr=$nr
tenv=$shared; [ -z "$nccl_why" ] && tenv="env NCCL_DEBUG=WARN"
T=2048
for H in 4096 8192; do
    step "tensor-split mlp tokens=$T hidden=$H ffn=$((4 * H)), $tr ranks (throughput)" 120 gpu $tenv "$labrun" "$labs/tensor-split" --backend cuda --mode mlp --ranks "$tr" --tokens $T --hidden $H --ffn $((4 * H)) --quiet --json "$out/logs/ts.h$H.json"
done

# ---- 7. All-reduce sweep to 256 MiB ----------------------------------------------------
ar=$nr; [ -n "$nccl_why" ] && ar=4
aenv=$shared; [ -z "$nccl_why" ] && aenv="env NCCL_DEBUG=WARN"
step "allreduce sweep 1 KiB..256 MiB, $ar ranks" 120 gpu $aenv "$labrun" "$labs/allreduce" --backend cuda --ranks "$ar" --minbytes 1024 --maxbytes 268435456 --stepfactor 4 --iters 10 --json "$out/logs/allreduce.sweep.json"

# ---- Results ------------------------------------------------------------------------------
total=$(elapsed)
passed=0 failed=0 skipped=0
for s in "${steps[@]}"; do
    case $(cut -d'|' -f2 <<<"$s") in
    PASS) passed=$((passed + 1)) ;;
    SKIP) skipped=$((skipped + 1)) ;;
    *) failed=$((failed + 1)) ;;
    esac
done
measured=0
for k in "${!secs_of[@]}"; do measured=$(awk -v a="$measured" -v b="${secs_of[$k]}" 'BEGIN { print a + b }'); done
est8=$(awk -v a="$measured" -v b="$estimate_extra" 'BEGIN { printf "%.0f", a + b }')
if [ -n "$gpu_why" ]; then
    est_line="8 GPUs: no estimate (no GPU step ran here: $gpu_why)"
else
    est_line="8 GPUs would take about $est8 s (an estimate: the $measured s of steps timed here, each NCCL step skipped here priced as its shared-GPU twin; NCCL's start-up on 8 GPUs not included)"
fi

{
    echo "# GPU check"
    echo
    echo "machine: $machine; $versions; ${ngpu:-0} GPU(s); layout $layout; $(date -u '+%Y-%m-%d %H:%M UTC')"
    [ -n "$gpu_why" ] && echo && echo "GPU steps skipped: $gpu_why"
    [ -n "$nccl_why" ] && echo && echo "NCCL steps skipped: $nccl_why"
    echo
    echo "$passed passed, $failed failed or timed out, $skipped skipped in $total s."
    echo "$est_line."
    echo
    echo "| step | status | s | limit s | detail |"
    echo "|---|---|---|---|---|"
    for s in "${steps[@]}"; do
        IFS='|' read -r n st sc lim d _ <<<"$s"
        echo "| $n | $st | $sc | $lim | $d |"
    done
    echo
    echo "## Tensor-split MLP throughput (fp32, measured; peak modelled)"
    echo
    echo "split: the slowest rank's GEMM+GeLU time plus its all-reduce time; unsplit: the layer's two"
    echo "GEMMs on one GPU (one cuBLAS GEMM pair of the same total size).  fp32 peak: ${peak:-unknown} GFLOP/s"
    echo "(gpu_info: SMs x fp32 lanes x 2 x peak clock, modelled)."
    echo
    echo "| hidden | ranks | split ms | unsplit ms | split / unsplit | split GFLOP/s | unsplit GFLOP/s | unsplit / peak |"
    echo "|---|---|---|---|---|---|---|---|"
    for H in 4096 8192; do
        f=$out/logs/ts.h$H.json
        [ -f "$f" ] || continue
        awk -v h=$H -v r="$tr" -v t=$T -v c="$(metric "$f" compute_ms)" -v m="$(metric "$f" comm_ms)" \
            -v u="$(metric "$f" unsplit_ms)" -v pk="${peak:-0}" 'BEGIN {
            fl = 2 * 2 * t * h * 4 * h; s = c + m
            # Every comparison in parentheses: a bare ">" in printf'"'"'s arguments is a redirection.
            ratio = (u > 0) ? s / u : 0
            sg = (s > 0) ? fl / (s * 1e-3) / 1e9 : 0
            ug = (u > 0) ? fl / (u * 1e-3) / 1e9 : 0
            pct = (pk > 0 && u > 0) ? sprintf("%.0f%%", 100 * ug / pk) : "-"
            printf "| %d | %d | %.3f | %.3f | %.2f | %.0f | %.0f | %s |\n", h, r, s, u, ratio, sg, ug, pct }'
    done
    echo
    echo "## Bubble on the GPU (replayed from CUDA-event times; formula modelled; wall measured)"
    echo
    echo "| run | bubble (replayed) | formula | bubble on the wall clock | forward ms | backward ms |"
    echo "|---|---|---|---|---|---|"
    for b in bubble.shared:"gpipe p=8 m=16 hidden 256" bubble.1f1b.shared:"1f1b p=8 m=16 hidden 256" \
             bubble.big.shared:"gpipe p=4 m=8 hidden 4096 batch 1024"; do
        f=$out/logs/${b%%:*}.json
        [ -f "$f" ] || continue
        awk -v n="${b#*:}" -v r="$(metric "$f" bubble_fraction)" -v fo="$(metric "$f" bubble_formula)" \
            -v w="$(metric "$f" bubble_wall)" -v fw="$(metric "$f" forward_ms)" -v bw="$(metric "$f" backward_ms)" \
            'BEGIN { printf "| %s | %.4f | %.4f | %.4f | %.3f | %.3f |\n", n, r, fo, w, fw, bw }'
    done
    echo
    echo "## All-reduce sweep (measured; algbw = S / t, busbw = algbw x 2(n-1)/n)"
    echo
    sweep_log=$out/$(logname "allreduce sweep 1 KiB..256 MiB, $ar ranks")
    if [ -s "$sweep_log" ]; then
        echo '```'
        cat "$sweep_log"
        echo '```'
    else
        echo "not run"
    fi
} >"$out/results.md"

{
    printf '{\n  "machine": "%s", "versions": "%s", "gpus": %d, "layout": "%s",\n' \
        "$(esc "$machine")" "$(esc "$versions")" "${ngpu:-0}" "$layout"
    printf '  "gpu_skipped": "%s", "nccl_skipped": "%s",\n' "$(esc "$gpu_why")" "$(esc "$nccl_why")"
    printf '  "seconds": %s, "passed": %d, "failed": %d, "skipped": %d,\n' "$total" $passed $failed $skipped
    printf '  "estimate_8_gpus_seconds": %s, "estimate_note": "%s",\n' \
        "$([ -n "$gpu_why" ] && echo null || echo "$est8")" "$(esc "$est_line")"
    echo '  "steps": ['
    n=${#steps[@]} i=0
    for s in "${steps[@]}"; do
        IFS='|' read -r nm st sc lim d lg <<<"$s"
        i=$((i + 1)); sep=,; [ $i -eq "$n" ] && sep=
        printf '    {"name": "%s", "status": "%s", "seconds": %s, "limit": %s, "detail": "%s", "log": "%s"}%s\n' \
            "$(esc "$nm")" "$st" "$sc" "$lim" "$(esc "$d")" "$lg" "$sep"
    done
    echo '  ],'
    echo '  "reports": {'
    files=()
    for f in "$out"/logs/*.json; do [ -s "$f" ] && files+=("$f"); done
    n=${#files[@]} i=0
    for f in "${files[@]}"; do
        i=$((i + 1)); sep=,; [ $i -eq "$n" ] && sep=
        printf '    "%s": ' "$(basename "$f" .json)"
        cat "$f"
        echo "$sep"
    done
    echo '  }'
    echo '}'
} >"$out/results.json"

echo "$est_line"
echo "gpu check: $passed passed, $failed failed, $skipped skipped in $total s; $out/results.md, $out/results.json"
[ "$failed" -eq 0 ] || exit 1
[ "$require" -eq 1 ] && [ -n "$gpu_why" ] && exit 1
exit 0
