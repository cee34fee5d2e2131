# The lab runs every backend check compares with the cpu backend (sourced by
# nccl_sim.sh, which runs them all, and coop.sh, which runs a sample of each
# lab): parameters that reach every schedule, rank count and message pattern.
# Sets the array `cases`, one "LAB --PARAM VALUE ..." per run.
# shellcheck disable=SC2034
cases=()
# The pipeline: every schedule, odd and even stage counts, one to many micro-batches.
for s in naive gpipe 1f1b; do
    for p in 1 2 3 5 8; do
        for m in 1 3 8; do
            cases+=("labs/bubble --stages $p --microbatches $m --schedule $s --hidden 32 --batch 4 --steps 1")
        done
    done
done
# Interleaved 1F1B (m a multiple of p; the last stage sends back to the first) and ZB-H1 (m >= p).
for p in 1 2 3 5; do
    for v in 2 3; do
        for m in $p $((2 * p)); do
            cases+=("labs/bubble --stages $p --microbatches $m --schedule interleaved --chunks $v --hidden 32 --batch 4 --steps 1")
        done
    done
done
for p in 1 2 3 5 8; do
    for m in $p $((p + 1)) $((2 * p)); do
        cases+=("labs/bubble --stages $p --microbatches $m --schedule zb-h1 --hidden 32 --batch 4 --steps 1")
    done
done
cases+=("labs/memory --tp 2 --pp 2 --layers 4 --hidden 256 --heads 4 --seq 64 --vocab 1000 --microbatches 4 --sequence-parallel --dp 3 --zero 3")
for r in 1 2 3 4; do
    for mode in column row mlp; do
        cases+=("labs/tensor-split --ranks $r --mode $mode --tokens 17 --hidden 50 --ffn 101")
    done
done
cases+=("labs/tensor-split --ranks 4 --mode mlp --tokens 33 --hidden 65 --ffn 130 --dtype fp64")
for r in 1 2 3 4 8; do
    cases+=("labs/allreduce --ranks $r --minbytes 0 --maxbytes 65536 --iters 2 --warmup-iters 1")
done
cases+=("labs/allreduce --ranks 4 --minbytes 4 --maxbytes 4194304 --stepfactor 16 --iters 1 --dtype fp64")
for p in 1 2 4; do
    cases+=("labs/activations --stages $p --microbatches 3 --layers 8 --hidden 32 --tokens 8")
done
cases+=("labs/activations --stages 8 --microbatches 4 --layers 8 --hidden 16 --tokens 4 --dtype fp64")
cases+=("labs/memory --tp 2 --pp 2 --layers 4 --hidden 256 --heads 4 --seq 64 --vocab 1000 --microbatches 4")
cases+=("labs/memory --tp 1 --pp 3 --layers 6 --hidden 128 --heads 2 --seq 32 --vocab 500 --microbatches 5 --recompute full")
# The example lab of doc/labrun.md.
cases+=("tests/data/labs/hello --ranks 3 --count 101")

