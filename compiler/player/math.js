/*
 * math.js — the quiz's formulas in the player.  quizc packs it, with
 * Temml's script before it, only in a package whose quiz has math; Temml
 * turns each TeX into MathML, which the browser draws and a screen reader
 * reads as math.  player.js calls QzMath.render for each formula span.
 */
(function () {
  'use strict';
  window.QzMath = {
    /* A <span> holding tex as MathML (displayed for \[ \]); the TeX itself if Temml refuses it. */
    render: function (tex, display) {
      var span = document.createElement('span');
      span.className = display ? 'math math-display' : 'math';
      try {
        window.temml.render(tex, span, { displayMode: !!display, throwOnError: true });
      } catch (e) {
        span.textContent = display ? '\\[' + tex + '\\]' : '\\(' + tex + '\\)';
      }
      return span;
    }
  };
})();
