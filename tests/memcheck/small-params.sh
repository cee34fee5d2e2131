# Sourced by the valgrind and ThreadSanitizer runs: parameters that make each
# lab a run of a second or two, so it can be repeated under a slow checker.
small_params() {
    case $1 in
    bubble)       echo --stages 2 --microbatches 2 --hidden 16 --batch 4 --steps 1 ;;
    tensor-split) echo --ranks 2 --tokens 8 --hidden 16 --ffn 32 ;;
    memory)       echo --layers 2 --hidden 64 --heads 2 --seq 16 --vocab 128 --tp 2 --pp 2 --microbatches 2 ;;
    activations)  echo --stages 2 --microbatches 2 --layers 2 --tokens 4 --hidden 16 ;;
    allreduce)    echo --ranks 2 --minbytes 1024 --maxbytes 4096 --iters 1 --warmup-iters 0 ;;
    *)            echo ;;
    esac
}
