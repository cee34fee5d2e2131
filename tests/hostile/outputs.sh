#!/usr/bin/env bash
# Outputs touch only what the tool wrote (quizc and labrun): a --dir folder
# is replaced only when it is quizc's own package; a device, FIFO, socket or
# folder named as an output is written through as a stream or refused, never
# replaced; a failed write (full device, full file system, file size limit)
# exits 1 and leaves the target as it was; an input of the run is never an
# output.  Every case lives in a folder made here: device nodes are made with
# mknod and full file systems are small tmpfs mounts, both as root only.
#
#   tests/hostile/outputs.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
root=$PWD
build=${1:-build}
suite=outputs
. tests/hostile/lib/common.sh
case $build in /*) ;; *) build=$root/$build ;; esac
quizc=$build/quizc labrun=$build/labrun
[ -x "$quizc" ] && [ -x "$labrun" ] || { echo "outputs: $quizc or $labrun is not built"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/qz-outputs-XXXXXX")
mounts=()
cleanup() {
    for m in "${mounts[@]}"; do umount "$m" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
export OPENBLAS_NUM_THREADS=1
hostile_scale 4

name= ok= d= err= rc=
begin() { name=$1 ok=1 d=$tmp/$1 err=$tmp/$1.err; mkdir -p "$d"; }

# tool WANT_RC SECONDS PROGRAM ARGS...: run with a hard bound on its time.
tool() {
    local want=$1 limit=$(($2 * scale)) prog=$3; shift 3
    timeout -k 2 "$limit" "$prog" "$@" >"$d.stdout" 2>"$err"
    rc=$?
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        bad "$(basename "$prog") still running after ${limit}s: a hang"
    elif [ $rc -ne "$want" ]; then
        bad "$(basename "$prog") $*: exit status $rc, expected $want:" "$(tail -3 "$err")"
    fi
    grep -qE 'AddressSanitizer|runtime error:|LeakSanitizer' "$err" && bad "sanitizer report:" "$(head -20 "$err")"
    [ "$want" -eq 0 ] || grep -qE '^(quizc|labrun): error: ' "$err" || bad "no tool-level error line"
}
q() { local w=$1 s=$2; shift 2; tool "$w" "$s" "$quizc" "$@"; }
l() { local w=$1 s=$2; shift 2; tool "$w" "$s" "$labrun" "$@"; }
has() { grep -qaE -- "$1" "$err" || bad "stderr does not match /$1/:" "$(tail -3 "$err")"; }
# A listing of a tree with each file's checksum: equal before and after means untouched.
snap() { (cd "$1" && find . -printf '%p %y %s\n' | sort && find . -type f -exec md5sum {} + | sort); }
# No temporary (a hidden .NAME.XXXXXX) in folder $1.
no_temp() {
    local left
    left=$(find "$1" -maxdepth 1 -name '.*.??????' 2>/dev/null)
    [ -z "$left" ] || bad "temporaries left: $left"
}

is_root=0
[ "$(id -u)" = 0 ] && is_root=1
small=(--stages 2 --microbatches 2 --hidden 16 --batch 4 --steps 1 -q)

# A quiz with an include, and a copy of the labs it may use, in folder $1.
quiz_in() {
    mkdir -p "$1"
    cp -r "$root/labs" "$1/labs"
    cp "$root/quizzes/paralelisme.qz" "$1/quiz.qz"
    cp -r "$root/quizzes/figures" "$1/figures"
    printf 'quiz small {\n    title "Small"\n    include "more.qz"\n}\n' >"$1/main.qz"
    printf 'single one {\n    prompt "One?"\n    correct "Yes"\n    wrong "No"\n}\n' >"$1/more.qz"
}

# ---- --dir: only quizc's own package is replaced ----------------------------

begin dir-of-someone-else-is-refused
quiz_in "$d"
mkdir -p "$d/other/figures" && echo 'years of work' >"$d/other/thesis.tex" && echo x >"$d/other/figures/a.pdf"
before=$(snap "$d")
q 1 30 "$d/quiz.qz" --dir "$d/other"
has "'$d/other' is not a package quizc wrote; not touching it"
[ "$(snap "$d")" = "$before" ] || bad "the folder or its neighbours changed"
end

begin dir-holding-the-quiz-is-refused
quiz_in "$d/work"
before=$(snap "$d")
q 1 30 "$d/work/quiz.qz" --dir "$d/work"
has "an input of this run; not touching it"
(cd "$d/work" && timeout $((30 * scale)) "$quizc" quiz.qz --dir . >/dev/null 2>"$err")
[ $? -eq 1 ] || bad "--dir . beside the quiz was not refused"
q 1 30 "$d/work/quiz.qz" --dir "$d/work/labs"
has "an input of this run"
[ "$(snap "$d")" = "$before" ] || bad "the quiz's folder changed"
end

begin package-quizc-wrote-is-replaced
quiz_in "$d"
q 0 30 "$d/quiz.qz" --dir "$d/pkg"
[ -f "$d/pkg/.quizc-package" ] && [ -f "$d/pkg/imsmanifest.xml" ] || bad "no package with its marker"
touch -d '2001-01-01' "$d/pkg/imsmanifest.xml"
q 0 30 "$d/main.qz" --dir "$d/pkg"
[ "$d/pkg/imsmanifest.xml" -nt "$d/quiz.qz" ] || bad "the package was not written again"
grep -q 'Small' "$d/pkg/imsmanifest.xml" || bad "the package is not the second quiz's"
no_temp "$d"
end

begin package-with-a-file-added-is-refused
quiz_in "$d"
q 0 30 "$d/quiz.qz" --dir "$d/pkg"
echo mine >"$d/pkg/notes.txt"
before=$(snap "$d")
q 1 30 "$d/quiz.qz" --dir "$d/pkg"
has "not a package quizc wrote.*notes.txt"
[ "$(snap "$d")" = "$before" ] || bad "the package or its notes changed"
end

if [ $is_root = 1 ]; then
    begin dir-across-a-mount-is-refused
    quiz_in "$d"
    mkdir -p "$d/m" "$d/pkg"
    if mount -t tmpfs -o size=64k tmpfs "$d/m" 2>"$err"; then
        mounts+=("$d/m")
        q 1 30 "$d/main.qz" --dir "$d/m"
        has "mount point"
        mountpoint -q "$d/m" || bad "the mount point was replaced"
        q 0 30 "$d/main.qz" --dir "$d/pkg"
        mkdir "$d/pkg/mnt"
        mount -t tmpfs -o size=64k tmpfs "$d/pkg/mnt" && mounts+=("$d/pkg/mnt")
        echo keep >"$d/pkg/mnt/data"
        q 1 30 "$d/main.qz" --dir "$d/pkg"
        has "not a package quizc wrote"
        [ "$(cat "$d/pkg/mnt/data" 2>/dev/null)" = keep ] || bad "a file in the mount inside was touched"
        umount "$d/pkg/mnt" "$d/m"
        end
    else
        ok=1 && skip "cannot mount a tmpfs here: $(head -1 "$err")"
    fi
else
    name=dir-across-a-mount-is-refused; skip "needs root to mount a tmpfs"
fi

# ---- Devices, FIFOs, sockets, folders as targets ----------------------------

devs=0
if [ $is_root = 1 ] && mknod "$tmp/null" c 1 3 2>/dev/null && mknod "$tmp/full" c 1 7 2>/dev/null; then
    devs=1
fi
if [ $devs = 1 ]; then
    begin char-devices-are-written-through-never-replaced
    quiz_in "$d"
    q 0 30 "$d/quiz.qz" --format course -o "$tmp/null"
    q 1 30 "$d/quiz.qz" --format course -o "$tmp/full"
    has "No space left on device"
    q 0 60 "$d/quiz.qz" --format scorm -o "$tmp/null"
    for opt in --json --svg --trace; do
        l 0 60 "$d/labs/bubble" "${small[@]}" "$opt" "$tmp/null"
        l 1 60 "$d/labs/bubble" "${small[@]}" "$opt" "$tmp/full"
        has "cannot write .*No space left on device"
    done
    l 0 60 --verify "$root/tests/data/verify/pass.qz" -L "$d/labs" --record "$tmp/null"
    l 1 60 --verify "$root/tests/data/verify/pass.qz" -L "$d/labs" --record "$tmp/full"
    [ -c "$tmp/null" ] && [ -c "$tmp/full" ] || bad "a device node was replaced: $(ls -l "$tmp/null" "$tmp/full")"
    no_temp "$tmp"
    end
else
    name=char-devices-are-written-through-never-replaced; skip "needs root and mknod to make device nodes"
fi

# A reader that is ready before the writer starts: opened without blocking,
# it reads until the writer closes; it gives up after 60 s.
reader() {
    python3 - "$1" "$2" <<'EOF' &
import os, select, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_NONBLOCK)
open(sys.argv[2] + ".ready", "w").close()
seen, out, t0 = False, open(sys.argv[2], "wb"), time.time()
while time.time() - t0 < 60:
    select.select([fd], [], [], 0.2)
    try:
        data = os.read(fd, 65536)
    except BlockingIOError:
        continue
    if data:
        seen = True
        out.write(data)
    elif seen:
        break
    else:
        time.sleep(0.05)
EOF
    local i=0
    while [ ! -e "$2.ready" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
}

begin fifo-without-a-reader-is-refused-at-once
quiz_in "$d"
mkfifo "$d/fifo"
q 1 20 "$d/quiz.qz" --format course -o "$d/fifo"
has "a FIFO that no process reads"
l 1 60 "$d/labs/bubble" "${small[@]}" --json "$d/fifo"
[ -p "$d/fifo" ] || bad "the FIFO was replaced"
no_temp "$d"
end

begin fifo-with-a-reader-gets-the-output
quiz_in "$d"
mkfifo "$d/fifo"
reader "$d/fifo" "$d/got.xml"
q 0 30 "$d/quiz.qz" --format course -o "$d/fifo"
wait
xmllint --noout --huge "$d/got.xml" 2>/dev/null || bad "the reader did not get a whole document"
reader "$d/fifo" "$d/got.json"
l 0 60 "$d/labs/bubble" "${small[@]}" --json "$d/fifo"
wait
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$d/got.json" 2>/dev/null || bad "the reader did not get the JSON report"
[ -p "$d/fifo" ] || bad "the FIFO was replaced"
end

begin stdout-by-name-is-a-stream
quiz_in "$d"
timeout $((30 * scale)) "$quizc" "$d/quiz.qz" --format course -o /dev/stdout 2>"$err" | xmllint --noout --huge - \
    || bad "-o /dev/stdout into a pipe is not the document"
timeout $((30 * scale)) "$quizc" "$d/quiz.qz" --format course -o /dev/stdout >"$d/out.xml" 2>"$err" \
    || bad "-o /dev/stdout into a file failed"
xmllint --noout --huge "$d/out.xml" 2>/dev/null || bad "the file behind stdout is not the document"
no_temp "$d"
end

begin socket-is-refused-and-kept
quiz_in "$d"
python3 -c 'import socket,sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$d/sock"
q 1 30 "$d/quiz.qz" --format course -o "$d/sock"
has "socket"
l 1 60 "$d/labs/bubble" "${small[@]}" --svg "$d/sock"
[ -S "$d/sock" ] || bad "the socket was replaced"
no_temp "$d"
end

begin folder-as-a-file-target-is-refused-and-kept
quiz_in "$d"
mkdir "$d/out" && echo keep >"$d/out/k"
q 1 30 "$d/quiz.qz" --format course -o "$d/out"
has "it is a folder"
l 1 60 "$d/labs/bubble" "${small[@]}" --trace "$d/out"
[ "$(cat "$d/out/k")" = keep ] || bad "the folder's file changed"
no_temp "$d"
end

# ---- Failed writes leave the target as it was --------------------------------

begin file-size-limit-is-an-error-and-changes-nothing
quiz_in "$d"
echo SENTINEL >"$d/c.xml" && echo SENTINEL >"$d/r.json"
# The course is about 90 KiB, a player file over 16 KiB, the report over 1 KiB.
(ulimit -f 16; q 1 30 "$d/quiz.qz" -o "$d/c.xml"; has "File too large"
 q 1 60 "$d/quiz.qz" --dir "$d/pkg"; [ "$ok" = 1 ]) || ok=0
(ulimit -f 1; l 1 60 "$d/labs/bubble" "${small[@]}" --json "$d/r.json"; has "File too large"; [ "$ok" = 1 ]) || ok=0
[ "$ok" = 1 ] || echo "    (under ulimit -f)"
[ "$(cat "$d/c.xml")" = SENTINEL ] && [ "$(cat "$d/r.json")" = SENTINEL ] || bad "a target changed"
[ ! -e "$d/pkg" ] || bad "a partial package was left"
no_temp "$d"
end

if [ $is_root = 1 ]; then
    begin full-file-system-is-an-error-and-changes-nothing
    quiz_in "$d"
    mkdir "$d/fs"
    if mount -t tmpfs -o size=64k tmpfs "$d/fs" 2>"$err"; then
        mounts+=("$d/fs")
        echo SENTINEL >"$d/fs/c.xml"
        q 1 30 "$d/quiz.qz" -o "$d/fs/c.xml"
        has "No space left on device"
        q 1 60 "$d/quiz.qz" --dir "$d/fs/pkg"
        [ "$(cat "$d/fs/c.xml")" = SENTINEL ] || bad "the previous output changed"
        [ ! -e "$d/fs/pkg" ] || bad "a partial package was left"
        no_temp "$d/fs"
        # Nearly full: the runs file (about 10 KiB) does not fit.
        echo SENTINEL >"$d/fs/runs.json"
        head -c 56k /dev/zero >"$d/fs/filler" 2>/dev/null
        l 1 60 --verify "$root/tests/data/verify/pass.qz" -L "$d/labs" --record "$d/fs/runs.json"
        [ "$(cat "$d/fs/runs.json")" = SENTINEL ] || bad "the previous runs file changed"
        no_temp "$d/fs"
        umount "$d/fs"
        end
    else
        skip "cannot mount a tmpfs here: $(head -1 "$err")"
    fi
else
    name=full-file-system-is-an-error-and-changes-nothing; skip "needs root to mount a tmpfs"
fi

# ---- An input of the run is never an output ----------------------------------

begin inputs-are-never-outputs
quiz_in "$d"
l 0 60 --verify "$root/tests/data/verify/pass.qz" -L "$d/labs" --record "$d/runs.json"
cp "$root/tests/data/verify/pass.qz" "$d/pass.qz"
before=$(snap "$d")
q 1 30 "$d/quiz.qz" --format course -o "$d/quiz.qz"
has "input of this run"
q 1 30 "$d/main.qz" --format course -o "$d/more.qz"
has "input of this run"
q 1 30 "$d/quiz.qz" -L "$d/labs" --format course -o "$d/labs/bubble/lab.qz"
has "input of this run"
q 1 30 "$d/pass.qz" -L "$d/labs" --runs "$d/runs.json" --format course -o "$d/runs.json"
has "input of this run"
l 1 60 "$d/labs/bubble" "${small[@]}" --json "$d/labs/bubble/lab.qz"
has "input of this run"
l 1 60 --verify "$d/pass.qz" -L "$d/labs" --record "$d/pass.qz"
has "input of this run"
[ "$(snap "$d")" = "$before" ] || bad "an input changed"
end

summary
