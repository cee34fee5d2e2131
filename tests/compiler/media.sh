#!/bin/sh
# tests/compiler/media.sh BUILD — figures and formulas (compiler/media.h):
#   every error of tests/data/media/errors.qz, word for word (errors.expected)
#   course.xml of figures.qz valid against compiler/course.xsd, each <img>
#   with the SHA-256 of its file, each formula with its TeX and MathML
#   Moodle XML: each embedded file decodes to the bytes of its source
#   GIFT: a warning at each image; gift-pegjs reads the escaped TeX back
#   SCORM: the images in the package and its manifest, Temml only with math
#   the cache of formulas: a second compile without Node.js, the same output;
#   entries that are not MathML, links, FIFOs and a folder that cannot be
#   made all cost only the conversion; where it is by default
# Prints "media: N passed, N failed" for scripts/run-tests.sh.
set -u
# No case may read or fill the user's cache of formulas, however this is run:
# the cache's own cases below name folders in $T.
export QUIZC_CACHE=off
B=${1:-build}
QUIZC=$(cd "$(dirname "$B/quizc")" && pwd)/quizc
SRC=$(pwd)/tests/data/media
pass=0 failn=0
ok()  { pass=$((pass + 1)); echo "ok: $*"; }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }
finish() { echo "media: $pass passed, $failn failed"; [ "$failn" -eq 0 ]; exit $?; }
[ -x "$QUIZC" ] || { bad "no $QUIZC"; finish; }
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
cp "$SRC"/* "$T"/
# An image past the 2 MiB limit, made here rather than kept in the tree.
{ printf '\211PNG\r\n\032\n'; head -c 2200000 /dev/zero; } > "$T/big.png"
cd "$T" || exit 1

# ---- Errors, word for word ---------------------------------------------------
"$QUIZC" --check errors.qz 2> errors.out
rc=$?
[ $rc -eq 1 ] && ok "errors.qz: exit 1" || bad "errors.qz: exit $rc"
if cmp -s errors.out errors.expected; then ok "errors.qz: every message as expected"
else bad "errors.qz: messages differ: $(diff errors.expected errors.out | head -10)"; fi
"$QUIZC" errors.qz -o errors.xml 2>/dev/null
[ ! -e errors.xml ] && ok "errors.qz: no partial output" || bad "errors.qz: wrote errors.xml"
QUIZC_NODE=/nonexistent/node "$QUIZC" --check figures.qz 2> nonode.out
grep -q "error: TeX math is turned into MathML by Temml under Node.js, and '/nonexistent/node' cannot run: No such file or directory" nonode.out &&
    ok "no Node.js: one error naming it" || bad "no Node.js: $(head -3 nonode.out)"
cp bar.png bar.keep
"$QUIZC" figures.qz --format moodle -o bar.png 2> input.err
grep -q "error: cannot write 'bar.png': it is an input of this run; not overwriting it" input.err && cmp -s bar.png bar.keep &&
    ok "an image is an input of the run: no output overwrites it" || bad "output over an image: $(head -2 input.err)"

# ---- course.xml ----------------------------------------------------------------
if "$QUIZC" figures.qz -o course.xml 2> course.err; then ok "figures.qz compiles to course.xml"
else bad "figures.qz: $(head -5 course.err)"; finish; fi
xmllint --noout --nonet --schema "$OLDPWD/compiler/course.xsd" course.xml 2> xsd.err &&
    ok "course.xml is valid against course.xsd" || bad "course.xml: $(head -3 xsd.err)"
xp() { xmllint --xpath "$1" "$2" 2>/dev/null; }
for f in split.svg bar.png; do
    want=$(sha256sum "$f" | cut -d' ' -f1)
    got=$(xp "string((//*[local-name()='img'][@src='$f'])[1]/@sha256)" course.xml)
    [ "$got" = "$want" ] && ok "course.xml: $f with its SHA-256" || bad "course.xml: $f: sha256 '$got', file's $want"
    n=$(xp "count(//*[local-name()='img'][@src='$f'])" course.xml)
    [ "$n" = 2 ] && ok "course.xml: $f shown in both languages" || bad "course.xml: $f shown $n times"
done
alt=$(xp "string(//*[local-name()='text'][@xml:lang='id']/*/*[local-name()='img'][@src='split.svg']/@alt)" course.xml)
[ "$alt" = "Dua blok, A1 dan A2, berdampingan" ] && ok "course.xml: the Indonesian alt text" || bad "course.xml: id alt '$alt'"
tex=$(xp "string((//*[local-name()='formula'][@display='inline'])[1]/*[local-name()='tex'])" course.xml)
[ "$tex" = '(p-1)/(m+p-1)' ] && ok "course.xml: a formula's TeX" || bad "course.xml: TeX '$tex'"
n=$(xp "count(//*[local-name()='formula'][not(*[namespace-uri()='http://www.w3.org/1998/Math/MathML' and local-name()='math'])])" course.xml)
m=$(xp "count(//*[local-name()='formula'])" course.xml)
[ "$n" = 0 ] && [ "$m" -ge 10 ] && ok "course.xml: all $m formulas carry MathML" || bad "course.xml: $n of $m formulas without MathML"
frac=$(xp "count(//*[local-name()='formula'][normalize-space(*[local-name()='tex'])='\\frac{3}{11} \\approx 0.27']//*[local-name()='mfrac'])" course.xml)
[ "$frac" = 2 ] && ok "course.xml: the fraction became <mfrac>" || bad "course.xml: $frac mfrac"

# ---- Moodle XML and GIFT -------------------------------------------------------
R=$OLDPWD
if "$QUIZC" figures.qz --format moodle -o bank.xml 2> moodle.err; then ok "figures.qz compiles to Moodle XML"
else bad "Moodle XML: $(head -3 moodle.err)"; fi
xmllint --noout --nonet --schema "$R/compiler/moodle.xsd" bank.xml 2> xsd.err &&
    ok "Moodle XML is valid against moodle.xsd" || bad "Moodle XML: $(head -3 xsd.err)"
(cd "$R" && node tests/formats/media-check.js moodle "$T/bank.xml" "$T") > check.log 2>&1 &&
    ok "Moodle XML: $(tail -1 check.log)" || bad "Moodle XML: $(grep FAIL check.log)"
"$QUIZC" figures.qz -o bank.gift 2> gift.err || bad "GIFT: $(head -3 gift.err)"
w=$(grep -c "warning: image '.*' cannot travel in this format: its alt text is written in its place" gift.err)
[ "$w" = 4 ] && ok "GIFT: a warning at each of the 4 images" || bad "GIFT: $w image warnings: $(head -3 gift.err)"
(cd "$R" && node tests/formats/media-check.js gift "$T/bank.gift" "$T") > check.log 2>&1 &&
    ok "GIFT: $(tail -1 check.log)" || bad "GIFT: $(grep FAIL check.log)"

# ---- SCORM ---------------------------------------------------------------------
if "$QUIZC" figures.qz --dir pkg 2> scorm.err; then ok "figures.qz packs as SCORM"
else bad "SCORM: $(head -3 scorm.err)"; fi
for f in split.svg bar.png; do
    cmp -s "pkg/media/$f" "$f" && ok "SCORM: media/$f is its source's bytes" || bad "SCORM: media/$f differs or is missing"
    [ "$(xp "count(//*[local-name()='file'][@href='media/$f'])" pkg/imsmanifest.xml)" = 1 ] &&
        ok "SCORM: imsmanifest.xml lists media/$f" || bad "SCORM: imsmanifest.xml does not list media/$f"
done
[ -f pkg/temml.min.js ] && grep -q '<script src="temml.min.js"></script>' pkg/index.html &&
    ok "SCORM: a quiz with math carries Temml, loaded by index.html" || bad "SCORM: no Temml with math"
"$QUIZC" nomath.qz --dir plain 2> plain.err || bad "nomath.qz: $(head -3 plain.err)"
[ ! -e plain/temml.min.js ] && [ ! -e plain/math.js ] && ! grep -q 'temml\|math.js' plain/index.html plain/imsmanifest.xml &&
    ok "SCORM: a quiz without math carries no math renderer" || bad "SCORM: math renderer in a quiz without math"

# ---- QTI 2.1 -------------------------------------------------------------------
QTI_XSD=$R/tests/data/schemas/qti-2.1/imsqti_v2p1p2.xsd
if "$QUIZC" figures.qz --format qti21 --lang en --dir qti 2> qti.err; then ok "figures.qz packs as QTI 2.1"
else bad "QTI: $(head -3 qti.err)"; fi
for f in qti/items/split.xml qti/items/cost.xml; do
    xmllint --noout --nonet --schema "$QTI_XSD" "$f" 2> xsd.err >/dev/null &&
        ok "QTI: ${f#qti/} with its MathML is valid QTI 2.1.2" || bad "QTI: $f: $(grep -v 'Skipping\|warning' xsd.err | head -3)"
done
n=$(xp "count(//*[local-name()='math'][namespace-uri()='http://www.w3.org/1998/Math/MathML'])" qti/items/cost.xml)
[ "$n" = 4 ] && ok "QTI: cost.xml holds its 4 formulas as MathML" || bad "QTI: cost.xml holds $n MathML formulas"
! grep -q '\\(' qti/items/cost.xml && ok "QTI: no TeX left in the items" || bad "QTI: TeX in cost.xml"
for f in split.svg bar.png; do
    cmp -s "qti/media/$f" "$f" && ok "QTI: media/$f is its source's bytes" || bad "QTI: media/$f differs or is missing"
    [ "$(xp "count(//*[local-name()='resource'][@identifier='item-split']/*[local-name()='file'][@href='media/$f'])" qti/imsmanifest.xml)" = 1 ] &&
        ok "QTI: the manifest lists media/$f among item-split's files" || bad "QTI: media/$f not among item-split's files"
done
[ "$(xp "count(//*[local-name()='img'][@src='../media/split.svg'])" qti/items/split.xml)" = 1 ] &&
    ok "QTI: split.xml shows ../media/split.svg" || bad "QTI: no <img src=../media/split.svg> in split.xml"

# ---- The cache of formulas (compiler/mathcache.h) ---------------------------------
C=$T/cache
QUIZC_CACHE=$C "$QUIZC" figures.qz -o cold.xml 2> cold.err || bad "cache: $(head -3 cold.err)"
n=$(find "$C/mathml" -type f 2>/dev/null | wc -l)
tex=$(xp "count(//*[local-name()='formula'])" cold.xml)
[ "$n" -gt 0 ] && [ "$n" -le "$tex" ] && [ -z "$(ls "$C/mathml" | grep -v '^[0-9a-f]\{64\}$')" ] &&
    ok "cache: $n entries for $tex formulas, each named by its hash" || bad "cache: $n entries: $(ls "$C/mathml" | head -3)"
[ "$(stat -c %a "$C")" = 700 ] && ok "cache: its folder is the user's alone" || bad "cache: folder mode $(stat -c %a "$C")"
nonode() { QUIZC_CACHE=$1 QUIZC_NODE=/nonexistent/node "$QUIZC" figures.qz -o "$2" 2> "$2.err"; }
nonode "$C" warm.xml && cmp -s cold.xml warm.xml &&
    ok "cache: compiled again without Node.js, the same course.xml" || bad "cache: warm: $(head -3 warm.xml.err)"
QUIZC_CACHE=off QUIZC_NODE=/nonexistent/node "$QUIZC" --check figures.qz 2> off.err
grep -q "cannot run" off.err && ok "cache: off, Node.js runs" || bad "cache: off: $(head -3 off.err)"
# Entries that are not MathML (another element, a link, a FIFO, a folder): converted again, then kept.
set -- "$C"/mathml/*
printf '<b xmlns="http://www.w3.org/1999/xhtml">not math</b>' > "$1"
printf 'not XML <' > "$2"
echo victim > victim && rm -f "$3" && ln -s "$T/victim" "$3"
rm -f "$4" && mkfifo "$4"
if [ $# -ge 5 ]; then rm -f "$5" && mkdir "$5"; fi
if QUIZC_CACHE=$C timeout 60 "$QUIZC" figures.qz -o poisoned.xml 2> poisoned.err && cmp -s cold.xml poisoned.xml; then
    ok "cache: entries that are no MathML file are converted again"
else bad "cache: bad entries: rc $?, $(head -3 poisoned.err)"; fi
[ "$(cat victim)" = victim ] && [ -f "$3" ] && [ ! -L "$3" ] && [ -f "$4" ] &&
    ok "cache: a link's target is never written; the link and the FIFO give way to entries" || bad "cache: link or FIFO: $(ls -l "$3" "$4")"
QUIZC_CACHE=$C timeout 60 "$QUIZC" figures.qz -o again.xml 2>/dev/null && cmp -s cold.xml again.xml &&
    ok "cache: and compiles again the same" || bad "cache: after the bad entries"
: > notadir
nonode "$T/notadir/cache" nodir.xml; rc=$?
QUIZC_CACHE=$T/notadir/cache "$QUIZC" figures.qz -o nodir.xml 2> nodir.err && [ $rc -eq 1 ] && cmp -s cold.xml nodir.xml &&
    ok "cache: a folder that cannot be made costs the conversion only" || bad "cache: no folder: $(head -3 nodir.err)"
# A formula Temml refuses is never kept: its error comes every time.
QUIZC_CACHE=$C "$QUIZC" --check errors.qz 2> e1.out
QUIZC_CACHE=$C "$QUIZC" --check errors.qz 2> e2.out
cmp -s e1.out errors.expected && cmp -s e2.out errors.expected &&
    ok "cache: errors are said each time, word for word" || bad "cache: errors: $(diff errors.expected e2.out | head -5)"
# Where it is by default: $XDG_CACHE_HOME/quizc, else ~/.cache/quizc (both made here).
env -u QUIZC_CACHE XDG_CACHE_HOME="$T/xdg" HOME="$T/home" "$QUIZC" --check figures.qz 2>/dev/null &&
    [ -n "$(ls "$T/xdg/quizc/mathml")" ] && [ ! -e "$T/home/.cache" ] &&
    ok "cache: in \$XDG_CACHE_HOME/quizc" || bad "cache: not in \$XDG_CACHE_HOME/quizc"
env -u QUIZC_CACHE -u XDG_CACHE_HOME HOME="$T/home" "$QUIZC" --check figures.qz 2>/dev/null &&
    [ -n "$(ls "$T/home/.cache/quizc/mathml")" ] && ok "cache: else in ~/.cache/quizc" || bad "cache: not in ~/.cache/quizc"

finish
