#!/usr/bin/env bash
# XML and package safety, end to end through quizc:
#  - every author string reaches course.xml and imsmanifest.xml escaped: the
#    documents stay well-formed and markup in a prompt stays text;
#  - characters XML 1.0 forbids are reported at their line and column, not written;
#  - identifiers in the documents are valid, unique XML IDs;
#  - zip entry names are relative and never contain `..`.
#
#   tests/hostile/xml-safety.sh BUILD_DIR
set -u
cd "$(dirname "$0")/../.."
build=${1:-build}
suite=xml-safety
. tests/hostile/lib/common.sh
quizc=$build/quizc
[ -x "$quizc" ] || { echo "xml-safety: $quizc is not built"; exit 1; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/qz-xmlsafe-XXXXXX")
trap 'rm -rf "$tmp"' EXIT

name= ok=
begin() { name=$1 ok=1; }

# The markup an author might paste, in every kind of string the language has.
evil='<script>alert(1)</script> & &amp; ]]> <!-- --> <?pi?> \"q\" '"'"'s'
cat >"$tmp/evil.qz" <<EOF
quiz evil-quiz {
    title "T $evil"
    intro "I $evil"
    languages en, id
    single q-1 {
        prompt { en: "P $evil" id: "P $evil" }
        correct "C $evil" because "B $evil"
        wrong { en: "W $evil" id: "W $evil" }
        explain "E $evil"
    }
    multiple _q2 { prompt "M" correct "x" correct "y" wrong "z" }
    numeric q3 { prompt "N" answer 0.26..0.29 unit "U $evil" }
    text q4 { prompt "T" accept "A $evil", "b" }
    truefalse Q5 { prompt "TF" answer true }
}
EOF

# Whether a document is well-formed, and its text holds no raw markup from the author.
check_doc() {
    local f=$1 what=$2
    xmllint --noout "$f" 2>"$tmp/xmllint.err" || { bad "$what is not well-formed:" "$(head -3 "$tmp/xmllint.err")"; return; }
    grep -qF '<script>' "$f" && bad "$what holds a raw <script> tag"
    grep -qF '<!-- -->' "$f" && bad "$what holds the author's comment as markup"
    grep -qF '<?pi?>' "$f" && bad "$what holds the author's processing instruction"
}

# Every attribute called `attr` is an NCName (an XML ID) and none repeats.
check_ids() {
    local f=$1 attr=$2 what=$3
    xmllint --xpath "//@*[local-name()='$attr']" "$f" 2>/dev/null | grep -oE "$attr=\"[^\"]*\"" |
        sed -E "s/^$attr=\"(.*)\"$/\1/" >"$tmp/ids"
    [ -s "$tmp/ids" ] || { bad "$what has no $attr attributes"; return; }
    local badid
    badid=$(grep -vE '^[A-Za-z_][A-Za-z0-9_.-]*$' "$tmp/ids" | head -3)
    [ -z "$badid" ] || bad "$what: $attr values that are not XML IDs: $badid"
    local dup
    dup=$(sort "$tmp/ids" | uniq -d | head -3)
    [ -z "$dup" ] || bad "$what: repeated $attr values: $dup"
}

begin author-markup-escaped-in-course-xml
"$quizc" "$tmp/evil.qz" -o "$tmp/evil.xml" 2>"$tmp/err" || bad "quizc failed:" "$(head -5 "$tmp/err")"
if [ -f "$tmp/evil.xml" ]; then
    check_doc "$tmp/evil.xml" course.xml
    # The author's text reads back exactly as written.
    want='P <script>alert(1)</script> & &amp; ]]> <!-- --> <?pi?> "q" '"'"'s'
    xmllint --xpath 'string(//*[@xml:lang="en" and contains(., "P <script>")])' "$tmp/evil.xml" \
        >"$tmp/got" 2>/dev/null
    [ "$(cat "$tmp/got")" = "$want" ] || bad "the prompt did not read back as written: $(cat "$tmp/got")"
fi
end

begin question-ids-are-xml-ids
[ -f "$tmp/evil.xml" ] && check_ids "$tmp/evil.xml" id course.xml
end

begin author-markup-escaped-in-the-package
if ! "$quizc" "$tmp/evil.qz" -o "$tmp/evil.zip" 2>"$tmp/err"; then
    if grep -q 'without SCORM' "$tmp/err"; then
        skip "this quizc is built without SCORM packaging"
        name=
    else
        bad "quizc failed:" "$(head -5 "$tmp/err")"
    fi
fi
if [ -n "$name" ]; then
    mkdir -p "$tmp/pkg"
    unzip -q -o "$tmp/evil.zip" -d "$tmp/pkg" || bad "the package does not unzip"
    for f in "$tmp"/pkg/*.xml; do
        check_doc "$f" "$(basename "$f")"
    done
    [ -f "$tmp/pkg/imsmanifest.xml" ] && check_ids "$tmp/pkg/imsmanifest.xml" identifier imsmanifest.xml
    end

    begin zip-entry-names-stay-inside
    zipinfo -1 "$tmp/evil.zip" >"$tmp/names" || bad "zipinfo failed"
    badname=$(grep -E '^/|(^|/)\.\.(/|$)|\\' "$tmp/names" | head -3)
    [ -z "$badname" ] || bad "unsafe entry names: $badname"
    grep -qx imsmanifest.xml "$tmp/names" || bad "imsmanifest.xml is not at the package root"
    end
fi

# forbidden LINE COL DESCRIPTION PRINTF-STRING: a string holding a character XML 1.0
# forbids is an error at that character (or at the escape that produced it).
forbidden() {
    begin "xml-forbidden-$3"
    # shellcheck disable=SC2059
    printf "quiz t {\n  title \"T\"\n  single q1 {\n    prompt \"$4\"\n    correct \"a\" wrong \"b\"\n  }\n}\n" \
        >"$tmp/f.qz"
    printf 'SENTINEL\n' >"$tmp/f.xml"
    "$quizc" "$tmp/f.qz" -o "$tmp/f.xml" 2>"$tmp/err"
    local rc=$?
    [ $rc -eq 1 ] || bad "exit status $rc, expected 1"
    grep -qE "f\.qz:$1:$2: error: " "$tmp/err" || bad "no error at $1:$2:" "$(head -4 "$tmp/err")"
    [ "$(cat "$tmp/f.xml")" = SENTINEL ] || bad "the output file was changed"
    end
}
forbidden 4 16 raw-control-char 'ab \001 cd'
forbidden 4 16 raw-vertical-tab 'ab \013 cd'
forbidden 4 16 raw-escape-char 'ab \033[31m'
forbidden 4 16 raw-u-fffe 'ab \357\277\276'
forbidden 4 16 raw-u-ffff 'ab \357\277\277'
# An escape is reported at the escape itself.
forbidden 4 16 escaped-control-char 'ab \\u{1} cd'
forbidden 4 16 escaped-nul 'ab \\u{0} cd'
forbidden 4 16 escaped-surrogate 'ab \\u{D800} cd'
forbidden 4 16 escaped-beyond-unicode 'ab \\u{110000} cd'

summary
