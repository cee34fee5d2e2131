/*
 * morph.js — redrawing the page in place: the new page is laid over the one
 * shown, so that what stays keeps its node (focus, live regions, listeners).
 * Used by player.js's render.
 */
(function () {
  'use strict';

  /*
   * The page is drawn whole (draw) and then laid over the one shown
   * (morph): an element that is still there, the same tag and id at the
   * same place, is kept and only its attributes, text and state change.
   * So focus stays where the learner is, and a role="status" region that
   * stays gets new words, which a screen reader announces; a region drawn
   * anew would be read as a new part of the page, or not at all.  A kept
   * element keeps its own listeners: each listener refers to the element it
   * was made with, and that is the one kept.
   */
  function sameNode(a, b) {
    if (a.nodeType !== b.nodeType) return false;
    if (a.nodeType !== 1) return true;
    return a.tagName === b.tagName && a.id === b.id && (a.tagName !== 'INPUT' || a.type === b.type);
  }

  function morphAttrs(cur, next) {
    var i, n;
    for (i = cur.attributes.length - 1; i >= 0; i--) {
      n = cur.attributes[i].name;
      /* A <details> the learner opened stays open. */
      if (!next.hasAttribute(n) && !(n === 'open' && cur.tagName === 'DETAILS')) cur.removeAttribute(n);
    }
    for (i = 0; i < next.attributes.length; i++) {
      n = next.attributes[i];
      if (cur.getAttribute(n.name) !== n.value) cur.setAttribute(n.name, n.value);
    }
    if (cur.tagName === 'INPUT' || cur.tagName === 'TEXTAREA') {
      if (cur.type !== 'file' && cur.value !== next.value) cur.value = next.value;
      if (cur.checked !== next.checked) cur.checked = next.checked;
      if (cur.disabled !== next.disabled) cur.disabled = next.disabled;
    }
  }

  function morph(cur, next) {
    morphAttrs(cur, next);
    var kids = Array.prototype.slice.call(next.childNodes);
    kids.forEach(function (n, i) {
      var c = cur.childNodes[i];
      if (c && sameNode(c, n)) {
        if (c.nodeType === 1) morph(c, n);
        else if (c.nodeValue !== n.nodeValue) c.nodeValue = n.nodeValue;
        return;
      }
      /* An element with an id further on (a question moved): brought here and kept. */
      var found = null;
      if (n.nodeType === 1 && n.id) {
        for (var k = i + 1; k < cur.childNodes.length && !found; k++) {
          if (sameNode(cur.childNodes[k], n)) found = cur.childNodes[k];
        }
      }
      if (found) {
        cur.insertBefore(found, c || null);
        morph(found, n);
      } else {
        cur.insertBefore(n, c || null);
      }
    });
    while (cur.childNodes.length > kids.length) cur.removeChild(cur.lastChild);
  }

  window.QuizMorph = { morph: morph };
})();
