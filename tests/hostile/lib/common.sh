# tests/hostile/lib/common.sh — what every hostile script shares, sourced after it
# has set `suite` (the name its closing line starts with) and `build`:
#
#   begin NAME (the script's own, for its own paths) ... bad "why" ... end
#   skip "why"      a case this machine cannot make (root, a tmpfs, mpirun)
#   summary         "SUITE: N passed, N failed[, N skipped]"; its status is the script's
#
# `scale` is 1, or FACTOR for a sanitized build (hostile_scale FACTOR), and
# multiplies every time limit; `note`, set before end, follows "ok NAME".

passed=0 failed=0 skipped=0 name= ok= note=
scale=1

# hostile_scale FACTOR: sanitized builds are slower; their limits are scaled.
hostile_scale() { case $build in *san*) scale=$1 ;; esac; }


bad() {
    [ "$ok" = 1 ] && echo "FAIL $name"
    echo "    $*"
    ok=0
}

end() {
    if [ "$ok" = 1 ]; then
        passed=$((passed + 1))
        echo "ok   $name${note:+ ($note)}"
    else
        failed=$((failed + 1))
    fi
    note=
}

skip() {
    skipped=$((skipped + 1))
    echo "skip $name: $*"
}

summary() {
    local line="$suite: $passed passed, $failed failed"
    [ "$skipped" -gt 0 ] && line+=", $skipped skipped"
    echo "$line"
    [ "$failed" -eq 0 ]
}
