// The FourSquare (四子游戏) board of `qiyi play`: a 4x4 grid of points joined by
// lines, stones on the points, drawn from `state.board.position` (FSN). Clicks and
// drags become the moves `state.legal` lists; the stone the last move captured (in
// `before`, missing from `position`, not the mover) stays as a faded mark.
//
// createBoard(root, hooks) -> { render(view) }; see docs/play.md for the state.

import { dragAndDrop, el, showDrawError } from './svg.js';

const STEP = 200; // between two points, in viewBox units
const EDGE = 110; // from the viewBox edge to the outer points
const R = 62; // a stone's radius
const FILES = 'abcd';

const TEXT = {
  zh: { error: '无法显示局面', captured: '被吃' },
  en: { error: 'Cannot draw the position', captured: 'captured' },
};


// FSN -> { board: Map square -> seat (0 black, 1 white), side: 0|1 }. Rows run from
// rank 4 down to rank 1, files a..d; a digit is a run of empty points, '.' one.
export function parseFsn(fsn) {
  const board = new Map();
  let side = 0;
  if (typeof fsn !== 'string') return { board, side };
  const fields = fsn.trim().split(/\s+/);
  const rows = (fields[0] || '').split('/');
  for (let r = 0; r < rows.length && r < 4; r++) {
    const rank = 4 - r;
    let file = 0;
    for (const ch of rows[r]) {
      if (/[1-4]/.test(ch)) file += Number(ch);
      else if (ch === '.') file += 1;
      else if (ch === 'b' || ch === 'w' || ch === 'B' || ch === 'W') {
        if (file < 4) board.set(FILES[file] + rank, ch.toLowerCase() === 'b' ? 0 : 1);
        file += 1;
      }
    }
  }
  if (fields[1] === 'w') side = 1;
  return { board, side };
}

export function createBoard(root, hooks) {
  hooks = hooks || {};
  const size = 2 * EDGE + 3 * STEP;
  const svg = el('svg', {
    viewBox: `0 0 ${size} ${size}`,
    class: 'board-svg foursquare',
    preserveAspectRatio: 'xMidYMid meet',
    role: 'img',
  });
  svg.style.cssText =
    'display:block;width:100%;height:100%;max-height:88vh;touch-action:none;user-select:none;-webkit-user-select:none';
  root.appendChild(svg);

  let view = null;
  let selected = null;
  let sending = false;

  const lang = () => (view && view.lang === 'en' ? 'en' : 'zh');
  const you = () => (view && view.state && view.state.you === 1 ? 1 : 0);
  const legalList = () => {
    const l = view && view.state && Array.isArray(view.state.legal) ? view.state.legal : [];
    return view && view.replay ? [] : l.filter((m) => m && typeof m === 'object' && typeof m.to === 'string');
  };
  const movesFrom = (sq) => legalList().filter((m) => m.from === sq);
  const valid = (sq) => typeof sq === 'string' && /^[a-d][1-4]$/.test(sq);

  // Black starts on rank 4 and White on rank 1: the viewer's own side at the bottom
  // means the board turned half round for Black.
  function xy(sq) {
    const f = FILES.indexOf(sq[0]);
    const r = Number(sq[1]) - 1;
    if (you() === 0) return [EDGE + (3 - f) * STEP, EDGE + r * STEP];
    return [EDGE + f * STEP, EDGE + (3 - r) * STEP];
  }

  function stone(parent, seat, attrs) {
    const g = el('g', attrs, parent);
    el('circle', {
      r: R,
      fill: seat === 0 ? 'url(#fs-black)' : 'url(#fs-white)',
      stroke: seat === 0 ? '#000' : '#777',
      'stroke-width': 3,
    }, g);
    return g;
  }

  function draw() {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const state = (view && view.state) || {};
    const boardField = state.board && typeof state.board === 'object' ? state.board : {};
    const { board } = parseFsn(boardField.position);
    const before = typeof boardField.before === 'string' ? parseFsn(boardField.before).board : null;
    if (selected && (board.get(selected) === undefined || movesFrom(selected).length === 0)) selected = null;

    const defs = el('defs', {}, svg);
    const gb = el('radialGradient', { id: 'fs-black', cx: '35%', cy: '35%', r: '70%' }, defs);
    el('stop', { offset: '0%', 'stop-color': '#666' }, gb);
    el('stop', { offset: '100%', 'stop-color': '#0b0b0b' }, gb);
    const gw = el('radialGradient', { id: 'fs-white', cx: '35%', cy: '35%', r: '70%' }, defs);
    el('stop', { offset: '0%', 'stop-color': '#ffffff' }, gw);
    el('stop', { offset: '100%', 'stop-color': '#cfcac0' }, gw);

    el('rect', { x: 0, y: 0, width: size, height: size, rx: 18, fill: '#dcb36b' }, svg);
    // the lines
    const lines = el('g', { class: 'lines', stroke: '#4a3314', 'stroke-width': 6, 'stroke-linecap': 'round', 'pointer-events': 'none' }, svg);
    for (let i = 0; i < 4; i++) {
      const p = EDGE + i * STEP;
      el('line', { x1: EDGE, y1: p, x2: EDGE + 3 * STEP, y2: p }, lines);
      el('line', { x1: p, y1: EDGE, x2: p, y2: EDGE + 3 * STEP }, lines);
    }
    // coordinates
    const coords = el('g', { class: 'coords', 'font-size': 30, fill: '#4a3314', 'text-anchor': 'middle', 'pointer-events': 'none', 'font-family': 'DejaVu Sans, Arial, sans-serif' }, svg);
    for (let i = 0; i < 4; i++) {
      const file = you() === 0 ? FILES[3 - i] : FILES[i];
      const rank = you() === 0 ? i + 1 : 4 - i;
      const ft = el('text', { x: EDGE + i * STEP, y: size - 10 }, coords);
      ft.textContent = file;
      const rt = el('text', { x: 18, y: EDGE + i * STEP + 10 }, coords);
      rt.textContent = String(rank);
    }

    // the points: what a click lands on where there is no stone
    const points = el('g', { class: 'points' }, svg);
    for (let f = 0; f < 4; f++) {
      for (let r = 1; r <= 4; r++) {
        const name = FILES[f] + r;
        const [x, y] = xy(name);
        el('circle', { cx: x, cy: y, r: STEP / 2 - 4, class: 'point square', 'data-square': name, fill: '#000', 'fill-opacity': 0 }, points);
        el('circle', { cx: x, cy: y, r: 9, fill: '#4a3314', 'pointer-events': 'none' }, points);
      }
    }

    const marks = el('g', { class: 'marks', 'pointer-events': 'none' }, svg);
    const last = state.last && typeof state.last === 'object' ? state.last : null;
    if (last && valid(last.from) && valid(last.to)) {
      const [x1, y1] = xy(last.from);
      const [x2, y2] = xy(last.to);
      el('circle', { cx: x1, cy: y1, r: R * 0.55, class: 'last-move', 'data-square': last.from, fill: 'none', stroke: '#c0392b', 'stroke-width': 6, 'stroke-dasharray': '10 8' }, marks);
      el('line', { x1, y1, x2, y2, stroke: '#c0392b', 'stroke-width': 10, 'stroke-opacity': 0.55, 'stroke-linecap': 'round' }, marks);
    }
    // the stone the last move took
    if (before) {
      for (const [sq, seat] of before) {
        if (board.get(sq) === seat) continue;
        if (last && sq === last.from) continue;
        const [x, y] = xy(sq);
        const g = stone(marks, seat, { class: 'captured', 'data-square': sq, 'data-seat': seat, transform: `translate(${x},${y})`, opacity: 0.35 });
        el('path', { d: `M${-R * 0.5} ${-R * 0.5} L${R * 0.5} ${R * 0.5} M${R * 0.5} ${-R * 0.5} L${-R * 0.5} ${R * 0.5}`, stroke: '#c0392b', 'stroke-width': 10, 'stroke-linecap': 'round' }, g);
        const title = el('title', {}, g);
        title.textContent = TEXT[lang()].captured;
      }
    }

    const stones = el('g', { class: 'pieces' }, svg);
    for (const [sq, seat] of board) {
      const [x, y] = xy(sq);
      const movable = seat === you() && movesFrom(sq).length > 0;
      const g = stone(stones, seat, {
        class: 'piece' + (sq === selected ? ' selected' : '') + (movable ? ' movable' : ''),
        'data-square': sq,
        'data-seat': seat,
        transform: `translate(${x},${y})`,
        style: movable ? 'cursor:pointer' : null,
      });
      if (last && sq === last.to) {
        el('circle', { r: 14, fill: '#c0392b', 'pointer-events': 'none' }, g);
      }
      if (sq === selected) {
        el('circle', { r: R + 10, fill: 'none', stroke: '#2e8b57', 'stroke-width': 9 }, g);
      }
    }

    const targets = el('g', { class: 'targets' }, svg);
    if (selected) {
      const seen = new Set();
      for (const m of movesFrom(selected)) {
        if (seen.has(m.to) || !valid(m.to)) continue;
        seen.add(m.to);
        const [x, y] = xy(m.to);
        const g = el('g', { class: 'target', 'data-square': m.to, transform: `translate(${x},${y})`, style: 'cursor:pointer' }, targets);
        el('circle', { r: STEP / 2 - 4, fill: '#000', 'fill-opacity': 0 }, g);
        el('circle', { r: 26, fill: '#2e8b57', 'fill-opacity': 0.7 }, g);
      }
    }
  }

  function showError(err) {
    showDrawError(svg, { x: size / 2, y: size / 2, fontSize: 34 }, TEXT[lang()].error, 'foursquare', err);
  }

  function safeDraw() {
    try { draw(); } catch (err) { showError(err); }
  }

  function play(from, to) {
    const entry = movesFrom(from).find((m) => m.to === to && typeof m.text === 'string');
    if (!entry) return;
    selected = null;
    sending = true;
    setTimeout(() => { sending = false; }, 2000);
    safeDraw();
    if (typeof hooks.move === 'function') hooks.move(entry.text);
  }

  function hitOf(node) {
    while (node && node !== svg && node.getAttribute) {
      if (node.classList && node.classList.contains('target')) return { sq: node.getAttribute('data-square'), target: true };
      if (node.hasAttribute('data-square') && !(node.classList && node.classList.contains('captured'))) {
        return { sq: node.getAttribute('data-square') };
      }
      node = node.parentNode;
    }
    return null;
  }

  function clickHit(hit) {
    if (!hit || (view && view.replay) || sending) return;
    if (selected && (hit.target || movesFrom(selected).some((m) => m.to === hit.sq))) {
      play(selected, hit.sq);
      return;
    }
    if (movesFrom(hit.sq).length > 0 && hit.sq !== selected) selected = hit.sq;
    else selected = null;
    safeDraw();
  }

  svg.addEventListener('click', (ev) => {
    if (dragging.endsDrag()) return;
    clickHit(hitOf(ev.target));
  });

  const dragging = dragAndDrop(svg, {
    grab(ev) {
      if ((view && view.replay) || sending) return null;
      const hit = hitOf(ev.target);
      return hit && !hit.target && movesFrom(hit.sq).length > 0 ? hit.sq : null;
    },
    lift(from) {
      selected = from;
      safeDraw();
      const node = svg.querySelector(`.piece[data-square="${from}"]`);
      if (node) svg.appendChild(node);
      return node;
    },
    follow(node, p) {
      node.setAttribute('transform', `translate(${p.x},${p.y})`);
    },
    drop(from, under) {
      const hit = under ? hitOf(under) : null;
      if (hit && hit.sq !== from && movesFrom(from).some((m) => m.to === hit.sq)) play(from, hit.sq);
      else safeDraw();
    },
  });

  return {
    render(v) {
      view = v && typeof v === 'object' ? v : null;
      sending = false;
      safeDraw();
    },
  };
}
