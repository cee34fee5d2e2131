#!/usr/bin/env bash
# labrun under faults, each injected with the hidden --inject-fault KIND@RANK:
# a rank that fails with an error or crashes stops every rank, and labrun exits
# 1 within a bounded time with that rank's message; --timeout bounds a lab
# that never ends; NaN or Inf in a result fails the lab's check; SIGINT and
# SIGTERM stop every rank and leave no partial output file.
#
#   tests/hostile/labrun-faults.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
build=${1:-build}
suite=labrun-faults
. tests/hostile/lib/common.sh
labrun=$build/labrun
[ -x "$labrun" ] || { echo "labrun-faults: $labrun is not built"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/qz-faults-XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export OPENBLAS_NUM_THREADS=1
hostile_scale 3

name= ok= err= rc= secs=
begin() { name=$1 ok=1 err=$tmp/$1.err; mkdir -p "$tmp/$1"; }

# run WANT_RC SECONDS ARGS...: labrun with a hard bound on its time.
run() {
    local want=$1 limit=$(($2 * scale)); shift 2
    local t0=$SECONDS
    timeout -k 2 "$limit" "$labrun" "$@" >"$tmp/$name/stdout" 2>"$err"
    rc=$?
    secs=$((SECONDS - t0)) note="$secs s"
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        bad "still running after ${limit}s: a hang"
    elif [ $rc -ne "$want" ]; then
        bad "exit status $rc, expected $want:" "$(tail -5 "$err")"
    fi
}
has() { grep -qaE -- "$1" "$err" || bad "stderr does not match /$1/:" "$(tail -5 "$err")"; }
out_has() { grep -qaE -- "$1" "$tmp/$name/stdout" || bad "the report does not match /$1/"; }
# No report file and no temporary of one in the run's folder.
nothing_written() {
    local left
    left=$(ls -A "$tmp/$name")
    left=$(grep -vx stdout <<<"$left")
    [ -z "$left" ] || bad "files left: $left"
}

begin rank-error-stops-every-rank
run 1 20 labs/tensor-split --ranks 4 --inject-fault error@1 -q
has "rank 1: injected fault"
end

begin first-rank-error-stops-the-pipeline
run 1 20 labs/bubble --stages 4 --microbatches 4 --inject-fault error@0 -q
has "rank 0: injected fault"
has "stops waiting for rank"
end

begin rank-crash-is-reported-with-its-rank
run 1 20 labs/bubble --stages 4 --microbatches 4 --inject-fault crash@2 -q \
    --json "$tmp/$name/r.json" --svg "$tmp/$name/r.svg"
has "rank 2 crashed: segmentation fault"
nothing_written
end

begin crash-in-a-collective-lab
run 1 20 labs/allreduce --ranks 2 --maxbytes 4096 --inject-fault crash@1 -q
has "rank 1 crashed"
end

begin watchdog-stops-a-hanging-rank
run 1 15 labs/bubble --stages 4 --microbatches 4 --inject-fault hang@3 --timeout 2 -q \
    --json "$tmp/$name/r.json"
has "lab bubble did not finish within 2 s \(--timeout\)"
[ "$secs" -le $((6 * scale)) ] || bad "the watchdog took ${secs}s to stop a 2 s run"
nothing_written
end

begin watchdog-lets-a-run-in-time-finish
run 0 60 labs/bubble --stages 2 --microbatches 2 --hidden 16 --batch 4 --steps 1 --timeout 60 -q
end

for lab in "tensor-split --ranks 4" "bubble --stages 2 --microbatches 2" "activations --stages 2"; do
    for k in nan@1 inf@0; do
        begin "${k%@*}-fails-the-check-of-${lab%% *}"
        # shellcheck disable=SC2086
        run 1 60 labs/$lab --inject-fault $k
        out_has "FAIL "
        end
    done
done

# stop SIGNAL WANT_RC: a run stopped mid-way leaves nothing behind.
stop() {
    begin "$1-stops-every-rank-and-writes-nothing"
    local t0=$SECONDS
    "$labrun" labs/bubble --stages 4 --microbatches 4 --inject-fault hang@1 -q \
        --json "$tmp/$name/r.json" --trace "$tmp/$name/t.json" --svg "$tmp/$name/r.svg" \
        >"$tmp/$name/stdout" 2>"$err" &
    local pid=$!
    # The signal must come once labrun catches it: before that, the shell's
    # default for a background job (SIGINT ignored) or the kernel's would
    # decide, and loading the GPU libraries can take seconds on a busy
    # machine.  SigCgt in /proc lists the signals a process catches.
    local i=0 mask=$(( (1 << (2 - 1)) | (1 << (15 - 1)) ))
    while [ $i -lt $((300 * scale)) ] && kill -0 $pid 2>/dev/null; do
        caught=$(sed -n 's/^SigCgt:[[:space:]]*//p' /proc/$pid/status 2>/dev/null)
        [ -n "$caught" ] && [ $(( 0x$caught & mask )) -eq $mask ] && break
        sleep 0.05; i=$((i + 1))
    done
    sleep 0.5     # the ranks under way, rank 1 hung
    kill -"$1" $pid
    i=0
    while kill -0 $pid 2>/dev/null && [ $i -lt $((50 * scale)) ]; do sleep 0.1; i=$((i + 1)); done
    if kill -0 $pid 2>/dev/null; then
        bad "still running 5 s after SIG$1"
        kill -9 $pid
    fi
    wait $pid
    rc=$?
    secs=$((SECONDS - t0)) note="$secs s"
    [ $rc -eq "$2" ] || bad "exit status $rc, expected $2"
    has "every rank is stopped; no partial output is left"
    nothing_written
    end
}
stop INT 130
stop TERM 143

# Under MPI a failing rank ends the whole job (MPI_Abort), or mpirun does when one exits.
mpirun=$(command -v mpirun || true)
if [ -n "$mpirun" ] && timeout 60 "$mpirun" --allow-run-as-root --oversubscribe -np 1 \
        "$labrun" labs/tensor-split --ranks 1 --backend mpi -q >/dev/null 2>&1; then
    for k in error@1 crash@0 hang@1; do
        begin "mpi-${k%@*}-in-one-rank-ends-the-job"
        extra=()
        [ "$k" = hang@1 ] && extra=(--timeout 3)
        t0=$SECONDS
        timeout -k 2 $((60 * scale)) "$mpirun" --allow-run-as-root --oversubscribe -np 2 \
            "$labrun" labs/tensor-split --ranks 2 --backend mpi -q --inject-fault "$k" "${extra[@]}" \
            >"$tmp/$name/stdout" 2>"$err"
        rc=$?
        secs=$((SECONDS - t0)) note="$secs s"
        if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
            bad "still running after $((60 * scale))s: a hang"
        elif [ $rc -eq 0 ]; then
            bad "exit status 0"
        fi
        case $k in
        error@1) has "rank 1: injected fault" ;;
        crash@0) has "rank 0 crashed" ;;
        hang@1)  has "did not finish within 3 s" ;;
        esac
        end
    done
else
    skipped=3
    echo "skip mpi faults (3 cases): no mpirun, or this labrun was built without the mpi backend"
fi

begin bad-fault-spec-is-a-usage-error
run 2 10 labs/bubble --inject-fault boom@1
has "--inject-fault: 'boom@1' is not KIND@RANK"
end

begin bad-timeout-is-a-usage-error
run 2 10 labs/bubble --timeout -3
has "--timeout: '-3' is not a number of seconds"
end

begin help-shows-timeout-not-injection
run 0 10 --help
grep -q -- '--timeout' "$tmp/$name/stdout" "$err" || bad "--help does not mention --timeout"
grep -q -- 'inject' "$tmp/$name/stdout" "$err" && bad "--help shows the fault injection"
end

summary
