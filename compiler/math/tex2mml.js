// tex2mml.js: quizc's TeX to MathML step, run by Node.js after Temml's own
// script (temml.min.js, which defines `temml`).  quizc appends one call,
// convert([[HEX, DISPLAY], ...]), each TeX in hex so nothing needs escaping,
// and reads one line per formula: "ok MATHML" or "err POSITION MESSAGE".
"use strict";
function convert(formulas) {
    const out = [];
    for (const [hex, display] of formulas) {
        const tex = Buffer.from(hex, "hex").toString("utf8");
        try {
            const mml = temml.renderToString(tex, { displayMode: display, xml: true, throwOnError: true });
            // QTI 2.1 validates MathML against MathML 2, where a length has a unit: Temml writes 0 bare.
            const mml2 = mml.replace(/ (lspace|rspace|width|height|depth|voffset)="0"/g, ' $1="0em"');
            out.push("ok " + mml2.replace(/[\r\n]+/g, " "));
        } catch (e) {
            const pos = typeof e.position === "number" ? e.position : -1;
            // Temml's message ends with where it stopped, shown over several lines: quizc shows the place itself.
            const raw = e.name === "ParseError" ? String(e.message) : "malformed TeX (" + e.message + ")";
            const msg = raw.replace(/ at (position \d+|end of input):[^]*$/, "").trim();
            out.push("err " + pos + " " + msg.replace(/[\r\n]+/g, " "));
        }
    }
    process.stdout.write(out.join("\n") + "\n");
}
