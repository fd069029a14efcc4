// SVG helpers shared by the four boards.

const NS = 'http://www.w3.org/2000/svg';

// An SVG element `tag` with `attrs` (null and undefined values left out), appended to
// `parent` when one is given.
export function el(tag, attrs, parent) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v !== undefined && v !== null) node.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(node);
  return node;
}

// Where a pointer event falls in `svg`'s own coordinates (its viewBox), or null while
// the SVG is not laid out.
export function svgPoint(svg, ev) {
  const m = svg.getScreenCTM();
  if (!m) return null;
  return new DOMPoint(ev.clientX, ev.clientY).matrixTransform(m.inverse());
}

// Drag and drop on a board. A press that `grab(ev)` accepts (it returns what is to be
// dragged, or null) becomes a drag once the pointer has moved six pixels: `lift(what)`
// selects it and returns the element that follows the pointer (already placed on top),
// `follow(node, point)` moves that element, and on release `drop(what, element)` gets
// what lies under the pointer. The click a drag ends with is not a click: the board asks
// `endsDrag()` first.
export function dragAndDrop(svg, { grab, lift, follow, drop }) {
  let drag = null;
  let justDropped = false;
  svg.addEventListener('pointerdown', (ev) => {
    if (ev.button !== 0) return;
    const what = grab(ev);
    if (what != null) drag = { what, x: ev.clientX, y: ev.clientY, active: false, node: null };
  });
  window.addEventListener('pointermove', (ev) => {
    if (!drag) return;
    if (!drag.active) {
      if (Math.hypot(ev.clientX - drag.x, ev.clientY - drag.y) < 6) return;
      drag.active = true;
      drag.node = lift(drag.what);
      if (drag.node) drag.node.setAttribute('pointer-events', 'none');
    }
    const p = svgPoint(svg, ev);
    if (p && drag.node) follow(drag.node, p);
  });
  window.addEventListener('pointerup', (ev) => {
    if (!drag) return;
    const d = drag;
    drag = null;
    if (!d.active) return;
    justDropped = true;
    setTimeout(() => { justDropped = false; }, 0);
    drop(d.what, document.elementFromPoint(ev.clientX, ev.clientY));
  });
  return {
    endsDrag() {
      const was = justDropped;
      justDropped = false;
      return was;
    },
  };
}

// A board that failed to draw shows one red line in place of itself, and says why on the
// console; a failure while showing that is swallowed, as there is nothing more to do.
export function showDrawError(svg, { x, y, fontSize }, text, board, err) {
  try {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const t = el('text', { x, y, 'text-anchor': 'middle', 'font-size': fontSize, fill: '#a00' }, svg);
    t.textContent = text;
    console.error(board + ' board:', err);
  } catch (_) { /* nothing more to do */ }
}
