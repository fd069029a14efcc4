// The chess board of `qiyi play`: draws `state.board.position` (FEN) as an SVG and
// turns clicks and drags into the moves `state.legal` lists. It holds no rules: the
// targets shown are exactly the legal entries whose `from` is the selected square.
//
// createBoard(root, hooks) -> { render(view) }; see docs/play.md for the state.

import { dragAndDrop, el, showDrawError } from './svg.js';

const S = 100; // one square in viewBox units
const FILES = 'abcdefgh';

// Filled glyphs for both colours (painted white or black), each with U+FE0E so no
// system draws the pawn as an emoji.
const GLYPH = { k: '\u265A', q: '\u265B', r: '\u265C', b: '\u265D', n: '\u265E', p: '\u265F' };
const VS15 = '\uFE0E';

const NAMES = {
  zh: { q: '后', r: '车', b: '象', n: '马', title: '升变为', error: '无法显示局面' },
  en: { q: 'Queen', r: 'Rook', b: 'Bishop', n: 'Knight', title: 'Promote to', error: 'Cannot draw the position' },
};


// FEN placement -> { board: Map square -> {type, seat}, side: 0|1 }. Tolerant: an
// unreadable field leaves the rest drawn.
export function parseFen(fen) {
  const board = new Map();
  let side = 0;
  if (typeof fen !== 'string') return { board, side };
  const fields = fen.trim().split(/\s+/);
  const rows = (fields[0] || '').split('/');
  for (let r = 0; r < rows.length && r < 8; r++) {
    const rank = 8 - r;
    let file = 0;
    for (const ch of rows[r]) {
      if (/[1-8]/.test(ch)) {
        file += Number(ch);
      } else if (/[kqrbnp]/i.test(ch)) {
        if (file < 8) {
          const seat = ch === ch.toUpperCase() ? 0 : 1;
          board.set(FILES[file] + rank, { type: ch.toLowerCase(), seat });
        }
        file += 1;
      }
      // anything else (X-FEN promoted markers '~', stray characters) is skipped
    }
  }
  if (fields[1] === 'b') side = 1;
  return { board, side };
}

export function createBoard(root, hooks) {
  hooks = hooks || {};
  const svg = el('svg', {
    viewBox: `0 0 ${8 * S} ${8 * S}`,
    class: 'board-svg chess',
    preserveAspectRatio: 'xMidYMid meet',
    role: 'img',
  });
  svg.style.cssText =
    'display:block;width:100%;height:100%;max-height:88vh;touch-action:none;user-select:none;-webkit-user-select:none';
  root.appendChild(svg);

  let view = null;
  let selected = null; // square name of the selected piece
  let sending = false; // a move was sent; wait for the next state

  const lang = () => (view && view.lang === 'en' ? 'en' : 'zh');
  const legalList = () => {
    const l = view && view.state && Array.isArray(view.state.legal) ? view.state.legal : [];
    return view && view.replay ? [] : l.filter((m) => m && typeof m === 'object');
  };
  const you = () => {
    const y = view && view.state ? view.state.you : 0;
    return y === 1 ? 1 : 0;
  };
  const movesFrom = (sq) => legalList().filter((m) => m.from === sq && typeof m.to === 'string');

  // screen position of a square for the viewer
  function xy(sq) {
    const f = FILES.indexOf(sq[0]);
    const r = Number(sq.slice(1)) - 1;
    if (you() === 1) return [(7 - f) * S, r * S];
    return [f * S, (7 - r) * S];
  }

  function draw() {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const state = (view && view.state) || {};
    const boardField = state.board && typeof state.board === 'object' ? state.board : {};
    const { board } = parseFen(boardField.position);
    if (selected && (!board.has(selected) || movesFrom(selected).length === 0)) selected = null;

    const squares = el('g', { class: 'squares' }, svg);
    for (let f = 0; f < 8; f++) {
      for (let r = 1; r <= 8; r++) {
        const name = FILES[f] + r;
        const [x, y] = xy(name);
        const light = (f + r) % 2 === 0; // a1 dark, h1 light
        el('rect', {
          x, y, width: S, height: S,
          class: 'square ' + (light ? 'light' : 'dark'),
          'data-square': name,
          fill: light ? '#efd9b5' : '#b58863',
        }, squares);
      }
    }
    // coordinates along the viewer's left and bottom edges
    const coords = el('g', { class: 'coords', 'font-family': 'DejaVu Sans, Arial, sans-serif', 'font-size': 17, 'pointer-events': 'none' }, svg);
    for (let i = 0; i < 8; i++) {
      const fileName = you() === 1 ? FILES[7 - i] : FILES[i];
      const rankName = you() === 1 ? i + 1 : 8 - i;
      // the bottom row's square i is dark for i even, the left column's light
      const t1 = el('text', { x: i * S + S - 5, y: 8 * S - 6, 'text-anchor': 'end', fill: i % 2 === 0 ? '#efd9b5' : '#b58863' }, coords);
      t1.textContent = fileName;
      const t2 = el('text', { x: 5, y: i * S + 19, fill: i % 2 === 0 ? '#b58863' : '#efd9b5' }, coords);
      t2.textContent = rankName;
    }

    const marks = el('g', { class: 'marks', 'pointer-events': 'none' }, svg);
    const last = state.last && typeof state.last === 'object' ? state.last : null;
    for (const sq of [last && last.from, last && last.to]) {
      if (typeof sq === 'string' && /^[a-h][1-8]$/.test(sq)) {
        const [x, y] = xy(sq);
        el('rect', { x, y, width: S, height: S, class: 'last-move', 'data-square': sq, fill: '#d6c51e', 'fill-opacity': 0.45 }, marks);
      }
    }
    if (selected) {
      const [x, y] = xy(selected);
      el('rect', { x, y, width: S, height: S, class: 'selected-square', fill: '#4a9c5d', 'fill-opacity': 0.5 }, marks);
    }

    const pieces = el('g', { class: 'pieces' }, svg);
    for (const [sq, p] of board) {
      const [x, y] = xy(sq);
      const mine = p.seat === you() && movesFrom(sq).length > 0;
      const g = el('g', {
        class: 'piece' + (sq === selected ? ' selected' : '') + (mine ? ' movable' : ''),
        'data-square': sq,
        'data-seat': p.seat,
        'data-piece': p.seat === 0 ? p.type.toUpperCase() : p.type,
        transform: `translate(${x},${y})`,
        style: mine ? 'cursor:pointer' : null,
      }, pieces);
      el('rect', { width: S, height: S, fill: '#000', 'fill-opacity': 0 }, g);
      const t = el('text', {
        x: S / 2, y: S * 0.8,
        'text-anchor': 'middle',
        'font-size': 82,
        'font-family': 'DejaVu Sans, "Segoe UI Symbol", "Noto Sans Symbols2", "Apple Symbols", serif',
        fill: p.seat === 0 ? '#fff' : '#111',
        stroke: p.seat === 0 ? '#222' : '#111',
        'stroke-width': p.seat === 0 ? 2.5 : 1,
        'paint-order': 'stroke',
      }, g);
      t.textContent = GLYPH[p.type] + VS15;
    }

    const targets = el('g', { class: 'targets' }, svg);
    if (selected) {
      const seen = new Set();
      for (const m of movesFrom(selected)) {
        if (seen.has(m.to) || !/^[a-h][1-8]$/.test(m.to)) continue;
        seen.add(m.to);
        const [x, y] = xy(m.to);
        const g = el('g', { class: 'target', 'data-square': m.to, transform: `translate(${x},${y})`, style: 'cursor:pointer' }, targets);
        el('rect', { width: S, height: S, fill: '#000', 'fill-opacity': 0 }, g);
        if (board.has(m.to)) {
          el('circle', { cx: S / 2, cy: S / 2, r: S * 0.46, fill: 'none', stroke: '#1f6e33', 'stroke-opacity': 0.6, 'stroke-width': 7 }, g);
        } else {
          el('circle', { cx: S / 2, cy: S / 2, r: S * 0.15, fill: '#1f6e33', 'fill-opacity': 0.55 }, g);
        }
      }
    }
  }

  function showError(err) {
    showDrawError(svg, { x: 4 * S, y: 4 * S, fontSize: 30 }, NAMES[lang()].error, 'chess', err);
  }

  function safeDraw() {
    try { draw(); } catch (err) { showError(err); }
  }

  async function play(from, to) {
    const entries = movesFrom(from).filter((m) => m.to === to && typeof m.text === 'string');
    if (entries.length === 0) return;
    let text = entries[0].text;
    if (entries.length > 1) {
      const n = NAMES[lang()];
      const order = ['q', 'r', 'b', 'n'];
      const opts = entries
        .slice()
        .sort((a, b) => order.indexOf(a.promotion) - order.indexOf(b.promotion))
        .map((m) => ({ label: n[m.promotion] || String(m.promotion || m.text), value: m.text }));
      let choice = null;
      try {
        choice = typeof hooks.choose === 'function' ? await hooks.choose(n.title, opts) : opts[0].value;
      } catch (_) { choice = null; }
      if (choice === null || choice === undefined || !entries.some((m) => m.text === choice)) {
        selected = null;
        safeDraw();
        return;
      }
      text = choice;
    }
    selected = null;
    sending = true;
    setTimeout(() => { sending = false; }, 2000);
    safeDraw();
    if (typeof hooks.move === 'function') hooks.move(text);
  }

  function squareAt(target) {
    let node = target;
    while (node && node !== svg && node.getAttribute) {
      if (node.classList && node.classList.contains('target')) return { sq: node.getAttribute('data-square'), target: true };
      if (node.hasAttribute('data-square')) return { sq: node.getAttribute('data-square'), target: false };
      node = node.parentNode;
    }
    return null;
  }

  function clickSquare(sq, onTarget) {
    if (!sq || (view && view.replay) || sending) return;
    if (selected && (onTarget || movesFrom(selected).some((m) => m.to === sq))) {
      play(selected, sq);
      return;
    }
    if (movesFrom(sq).length > 0 && sq !== selected) selected = sq;
    else selected = null;
    safeDraw();
  }

  svg.addEventListener('click', (ev) => {
    if (dragging.endsDrag()) return;
    const hit = squareAt(ev.target);
    clickSquare(hit && hit.sq, hit && hit.target);
  });

  // drag and drop: press on a movable piece, move past a few pixels, release on a square
  const dragging = dragAndDrop(svg, {
    grab(ev) {
      if ((view && view.replay) || sending) return null;
      const hit = squareAt(ev.target);
      return hit && !hit.target && movesFrom(hit.sq).length > 0 ? hit.sq : null;
    },
    lift(from) {
      selected = from;
      safeDraw();
      const node = svg.querySelector(`.piece[data-square="${from}"]`);
      if (node) node.parentNode.appendChild(node);
      return node;
    },
    follow(node, p) {
      node.setAttribute('transform', `translate(${p.x - S / 2},${p.y - S / 2})`);
    },
    drop(from, under) {
      const hit = under ? squareAt(under) : null;
      if (hit && hit.sq !== from && movesFrom(from).some((m) => m.to === hit.sq)) {
        play(from, hit.sq);
      } else {
        safeDraw(); // back to its square, still selected
      }
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
