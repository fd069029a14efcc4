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
