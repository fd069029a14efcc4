// The shogi board of `qiyi play`: draws `state.board.position` (SFEN) with both hands
// and turns clicks and drags into the moves `state.legal` lists (board moves with
// `from`, drops with `drop`). It holds no rules: the targets shown are exactly the
// legal entries of the selected piece or hand piece.
//
// createBoard(root, hooks) -> { render(view) }; see docs/play.md for the state.

import { dragAndDrop, el, showDrawError } from './svg.js';

const W = 100; // one square's width in viewBox units
const H = 110; // and height (shogi squares are a little taller than wide)
const RANKS = 'abcdefghi';
const HAND_ORDER = ['R', 'B', 'G', 'S', 'N', 'L', 'P'];

const KANJI = {
  K: '玉', R: '飛', B: '角', G: '金', S: '銀', N: '桂', L: '香', P: '歩',
  '+R': '龍', '+B': '馬', '+S': '全', '+N': '圭', '+L': '杏', '+P': 'と',
};
const RANK_KANJI = '一二三四五六七八九';

const TEXT = {
  zh: { seat: ['☗ 先手', '☖ 后手'], seatShort: ['☗', '☖'], title: '升变?', promote: '成', keep: '不成', error: '无法显示局面' },
  en: { seat: ['☗ Sente', '☖ Gote'], seatShort: ['☗', '☖'], title: 'Promote?', promote: 'Promote', keep: 'Do not promote', error: 'Cannot draw the position' },
};


// SFEN -> { board: Map USI square -> {kind: 'P'|'+P'..., seat}, hands: [{P: 2}, {r: 1}]
// keyed by upper-case letter, side: 0|1 }. Tolerant of anything it cannot read.
export function parseSfen(sfen) {
  const board = new Map();
  const hands = [{}, {}];
  let side = 0;
  if (typeof sfen !== 'string') return { board, hands, side };
  let fields = sfen.trim().split(/\s+/);
  if (fields[0] === 'sfen') fields = fields.slice(1);
  if (fields[0] === 'position' && fields[1] === 'sfen') fields = fields.slice(2);
  const rows = (fields[0] || '').split('/');
  for (let r = 0; r < rows.length && r < 9; r++) {
    let col = 0; // 0 is file 9
    let promoted = false;
    const row = rows[r];
    for (let i = 0; i < row.length; i++) {
      const ch = row[i];
      if (/[1-9]/.test(ch)) {
        col += Number(ch);
        promoted = false;
      } else if (ch === '+') {
        promoted = true;
      } else if (/[kgsnlpbr]/i.test(ch)) {
        const upper = ch.toUpperCase();
        if (col < 9) {
          const kind = promoted && 'RBSNLP'.includes(upper) ? '+' + upper : upper;
          board.set(`${9 - col}${RANKS[r]}`, { kind, seat: ch === upper ? 0 : 1 });
        }
        col += 1;
        promoted = false;
      }
    }
  }
  if (fields[1] === 'w') side = 1;
  const handText = fields[2] || '-';
  if (handText !== '-') {
    const re = /(\d*)([RBGSNLPrbgsnlp])/g;
    let m;
    while ((m = re.exec(handText)) !== null) {
      const n = m[1] ? Number(m[1]) : 1;
      const upper = m[2].toUpperCase();
      const seat = m[2] === upper ? 0 : 1;
      hands[seat][upper] = (hands[seat][upper] || 0) + n;
    }
  }
  return { board, hands, side };
}

export function createBoard(root, hooks) {
  hooks = hooks || {};
  const svg = el('svg', {
    class: 'board-svg shogi',
    preserveAspectRatio: 'xMidYMid meet',
    role: 'img',
  });
  svg.style.cssText =
    'display:block;width:100%;height:100%;max-height:88vh;touch-action:none;user-select:none;-webkit-user-select:none';
  root.appendChild(svg);

  let view = null;
  let sel = null; // {from: '7g'} or {drop: 'P'}
  let sending = false;
  let layout = null;

  const lang = () => (view && view.lang === 'en' ? 'en' : 'zh');
  const you = () => (view && view.state && view.state.you === 1 ? 1 : 0);
  const legalList = () => {
    const l = view && view.state && Array.isArray(view.state.legal) ? view.state.legal : [];
    return view && view.replay ? [] : l.filter((m) => m && typeof m === 'object' && typeof m.to === 'string');
  };
  const movesOf = (s) => {
    if (!s) return [];
    if (s.drop) return legalList().filter((m) => m.drop === s.drop && !m.from);
    return legalList().filter((m) => m.from === s.from);
  };
  const sameSel = (a, b) => !!a && !!b && a.from === b.from && a.drop === b.drop;

  // hands above and below the board on a tall window, beside it on a wide one
  function portrait() {
    return window.innerWidth < window.innerHeight;
  }

  // the viewBox and where the board and the two hands go
  function computeLayout() {
    const coord = 40;
    const bw = 9 * W;
    const bh = 9 * H;
    if (portrait()) {
      const hand = 130;
      return {
        portrait: true,
        width: bw + coord + 20,
        height: hand + coord + bh + 20 + hand,
        bx: 10, by: hand + coord,
        coord,
        hands: [
          { x: 0, y: hand + coord + bh + 20, w: bw + coord + 20, h: hand }, // the viewer's, below
          { x: 0, y: 0, w: bw + coord + 20, h: hand }, // the opponent's, above
        ],
      };
    }
    const hand = 150;
    return {
      portrait: false,
      width: hand + 20 + bw + coord + 20 + hand,
      height: coord + bh + 10,
      bx: hand + 20, by: coord,
      coord,
      hands: [
        { x: hand + 20 + bw + coord + 20, y: coord, w: hand, h: bh }, // the viewer's, right
        { x: 0, y: coord, w: hand, h: bh }, // the opponent's, left
      ],
    };
  }

  function xy(sq) {
    const file = Number(sq[0]);
    const rank = RANKS.indexOf(sq[1]);
    if (you() === 1) return [layout.bx + (file - 1) * W, layout.by + (8 - rank) * H];
    return [layout.bx + (9 - file) * W, layout.by + rank * H];
  }
  const validSquare = (sq) => typeof sq === 'string' && /^[1-9][a-i]$/.test(sq);

  // one piece shape at (0,0)-(W,H) in group g; upside down when it faces the viewer
  function drawPiece(g, kind, flipped, scale) {
    const inner = el('g', { transform: `${flipped ? `rotate(180 ${W / 2} ${H / 2})` : ''} translate(${W / 2} ${H / 2}) scale(${scale || 1}) translate(${-W / 2} ${-H / 2})` }, g);
    el('path', {
      d: 'M50 9 L80 23 L89 101 L11 101 L20 23 Z',
      fill: '#f5dfa8', stroke: '#7a5522', 'stroke-width': 2.5, 'stroke-linejoin': 'round',
    }, inner);
    const promoted = kind.startsWith('+');
    let label;
    let size;
    if (lang() === 'en') {
      label = kind;
      size = promoted ? 40 : 50;
    } else {
      label = KANJI[kind] || kind;
      size = 54;
    }
    const t = el('text', {
      x: W / 2, y: 62 + size * 0.36,
      'text-anchor': 'middle',
      'font-size': size,
      'font-weight': lang() === 'en' ? 'bold' : 'normal',
      'font-family': '"Noto Serif CJK JP", "Noto Sans CJK JP", "Hiragino Mincho ProN", "Yu Mincho", "MS Mincho", "Noto Serif CJK SC", "Source Han Serif", "WenQuanYi Micro Hei", "Microsoft YaHei", "PingFang SC", serif',
      fill: promoted ? '#c0121b' : '#1a1a1a',
    }, inner);
    t.textContent = label;
  }

  function draw() {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    layout = computeLayout();
    svg.setAttribute('viewBox', `0 0 ${layout.width} ${layout.height}`);
    const state = (view && view.state) || {};
    const boardField = state.board && typeof state.board === 'object' ? state.board : {};
    const { board, hands } = parseSfen(boardField.position);
    if (sel && (movesOf(sel).length === 0 || (sel.from && !board.has(sel.from)))) sel = null;
    const t = TEXT[lang()];

    // board background, squares, grid
    el('rect', { x: layout.bx - 6, y: layout.by - 6, width: 9 * W + 12, height: 9 * H + 12, fill: '#e8c474', stroke: '#6b4a1f', 'stroke-width': 3, rx: 4 }, svg);
    const squares = el('g', { class: 'squares' }, svg);
    for (let f = 1; f <= 9; f++) {
      for (let r = 0; r < 9; r++) {
        const name = `${f}${RANKS[r]}`;
        const [x, y] = xy(name);
        el('rect', { x, y, width: W, height: H, class: 'square', 'data-square': name, fill: '#eccb80', stroke: '#5a3d18', 'stroke-width': 1.5 }, squares);
      }
    }
    for (const [i, j] of [[3, 3], [6, 3], [3, 6], [6, 6]]) {
      el('circle', { cx: layout.bx + i * W, cy: layout.by + j * H, r: 6, fill: '#5a3d18', 'pointer-events': 'none' }, svg);
    }
    // coordinates: file numbers above, rank letters (or kanji numerals) to the right
    const coords = el('g', { class: 'coords', 'font-size': 28, fill: '#5a3d18', 'text-anchor': 'middle', 'pointer-events': 'none', 'font-family': 'DejaVu Sans, Arial, sans-serif' }, svg);
    for (let i = 0; i < 9; i++) {
      const file = you() === 1 ? i + 1 : 9 - i;
      const ft = el('text', { x: layout.bx + i * W + W / 2, y: layout.by - 12 }, coords);
      ft.textContent = String(file);
      const rank = you() === 1 ? 8 - i : i;
      const rt = el('text', { x: layout.bx + 9 * W + layout.coord / 2 + 4, y: layout.by + i * H + H / 2 + 10 }, coords);
      rt.textContent = lang() === 'en' ? RANKS[rank] : RANK_KANJI[rank];
    }

    const marks = el('g', { class: 'marks', 'pointer-events': 'none' }, svg);
    const last = state.last && typeof state.last === 'object' ? state.last : null;
    for (const sq of [last && last.from, last && last.to]) {
      if (validSquare(sq)) {
        const [x, y] = xy(sq);
        el('rect', { x, y, width: W, height: H, class: 'last-move', 'data-square': sq, fill: '#d99b2b', 'fill-opacity': 0.45 }, marks);
      }
    }
    if (sel && sel.from && validSquare(sel.from)) {
      const [x, y] = xy(sel.from);
      el('rect', { x, y, width: W, height: H, class: 'selected-square', fill: '#4a9c5d', 'fill-opacity': 0.5 }, marks);
    }

    const pieces = el('g', { class: 'pieces' }, svg);
    for (const [sq, p] of board) {
      const [x, y] = xy(sq);
      const movable = p.seat === you() && movesOf({ from: sq }).length > 0;
      const g = el('g', {
        class: 'piece' + (sel && sel.from === sq ? ' selected' : '') + (movable ? ' movable' : ''),
        'data-square': sq,
        'data-seat': p.seat,
        'data-piece': p.kind,
        transform: `translate(${x},${y})`,
        style: movable ? 'cursor:pointer' : null,
      }, pieces);
      el('rect', { width: W, height: H, fill: '#000', 'fill-opacity': 0 }, g);
      const kind = p.kind === 'K' && p.seat === 1 && lang() !== 'en' ? 'K1' : p.kind;
      drawPiece(g, kind === 'K1' ? 'K' : kind, p.seat !== you(), 0.92);
      if (kind === 'K1') g.querySelector('text').textContent = '王';
    }

    // the hands
    for (const [slot, seat] of [[0, you()], [1, 1 - you()]]) {
      const box = layout.hands[slot];
      const hg = el('g', { class: 'hand', 'data-seat': seat }, svg);
      el('rect', { x: box.x + 2, y: box.y + 2, width: box.w - 4, height: box.h - 4, rx: 8, fill: '#e8d3a2', 'fill-opacity': 0.6, stroke: '#b08d4f', 'stroke-width': 2 }, hg);
      const kinds = HAND_ORDER.filter((k) => (hands[seat][k] || 0) > 0);
      const step = layout.portrait ? 112 : Math.min(120, (box.h - 70) / 7);
      const labelText = layout.portrait ? t.seatShort[seat] : t.seat[seat];
      const label = el('text', {
        'font-size': layout.portrait ? 40 : 26, fill: '#3b2a10', 'pointer-events': 'none',
        'font-family': 'DejaVu Sans, "WenQuanYi Micro Hei", "Noto Sans CJK SC", sans-serif',
      }, hg);
      label.textContent = labelText;
      if (layout.portrait) {
        label.setAttribute('x', box.x + 18);
        label.setAttribute('y', box.y + box.h / 2 + 14);
      } else {
        label.setAttribute('x', box.x + box.w / 2);
        label.setAttribute('text-anchor', 'middle');
        label.setAttribute('y', slot === 0 ? box.y + box.h - 20 : box.y + 36);
      }
      kinds.forEach((k, i) => {
        let px;
        let py;
        if (layout.portrait) {
          px = box.x + 80 + i * step;
          py = box.y + (box.h - H) / 2;
        } else {
          px = box.x + (box.w - W) / 2 - 12;
          // the viewer's hand fills from the bottom, the opponent's from the top
          py = slot === 0 ? box.y + box.h - 60 - (i + 1) * step : box.y + 52 + i * step;
        }
        const movable = seat === you() && movesOf({ drop: k }).length > 0;
        const hp = el('g', {
          class: 'hand-piece' + (sel && sel.drop === k && seat === you() ? ' selected' : '') + (movable ? ' movable' : ''),
          'data-drop': k,
          'data-seat': seat,
          'data-count': hands[seat][k],
          transform: `translate(${px},${py})`,
          style: movable ? 'cursor:pointer' : null,
        }, hg);
        if (sel && sel.drop === k && seat === you()) {
          el('rect', { x: 2, y: 2, width: W - 4, height: H - 4, rx: 8, fill: '#4a9c5d', 'fill-opacity': 0.5 }, hp);
        } else {
          el('rect', { width: W, height: H, fill: '#000', 'fill-opacity': 0 }, hp);
        }
        drawPiece(hp, k, seat !== you(), 0.82);
        const n = hands[seat][k];
        const badge = el('g', { transform: `translate(${W - 6},${H - 16})`, 'pointer-events': 'none' }, hp);
        el('circle', { r: 17, fill: n > 1 ? '#3b2a10' : '#8a7350' }, badge);
        const bt = el('text', { y: 8, 'text-anchor': 'middle', 'font-size': 23, 'font-weight': 'bold', fill: '#fff', 'font-family': 'DejaVu Sans, Arial, sans-serif' }, badge);
        bt.textContent = String(n);
      });
    }

    const targets = el('g', { class: 'targets' }, svg);
    if (sel) {
      const seen = new Set();
      for (const m of movesOf(sel)) {
        if (seen.has(m.to) || !validSquare(m.to)) continue;
        seen.add(m.to);
        const [x, y] = xy(m.to);
        const g = el('g', { class: 'target', 'data-square': m.to, transform: `translate(${x},${y})`, style: 'cursor:pointer' }, targets);
        el('rect', { width: W, height: H, fill: '#000', 'fill-opacity': 0 }, g);
        if (board.has(m.to)) {
          el('rect', { x: 5, y: 5, width: W - 10, height: H - 10, rx: 10, fill: 'none', stroke: '#1f6e33', 'stroke-opacity': 0.7, 'stroke-width': 7 }, g);
        } else {
          el('circle', { cx: W / 2, cy: H / 2, r: 16, fill: '#1f6e33', 'fill-opacity': 0.55 }, g);
        }
      }
    }
  }

  function showError(err) {
    svg.setAttribute('viewBox', '0 0 900 990');
    showDrawError(svg, { x: 450, y: 495, fontSize: 34 }, TEXT[lang()].error, 'shogi', err);
  }

  function safeDraw() {
    try { draw(); } catch (err) { showError(err); }
  }

  async function play(s, to) {
    const entries = movesOf(s).filter((m) => m.to === to && typeof m.text === 'string');
    if (entries.length === 0) return;
    let text = entries[0].text;
    const distinct = [...new Set(entries.map((m) => m.text))];
    if (distinct.length > 1) {
      const t = TEXT[lang()];
      const promo = entries.find((m) => m.promotion === '+' || /\+$/.test(m.text));
      const keep = entries.find((m) => m !== promo);
      const opts = [];
      if (promo) opts.push({ label: t.promote, value: promo.text });
      if (keep) opts.push({ label: t.keep, value: keep.text });
      for (const m of entries) if (!opts.some((o) => o.value === m.text)) opts.push({ label: m.text, value: m.text });
      let choice = null;
      try {
        choice = typeof hooks.choose === 'function' ? await hooks.choose(t.title, opts) : opts[0].value;
      } catch (_) { choice = null; }
      if (choice === null || choice === undefined || !distinct.includes(choice)) {
        sel = null;
        safeDraw();
        return;
      }
      text = choice;
    }
    sel = null;
    sending = true;
    setTimeout(() => { sending = false; }, 2000);
    safeDraw();
    if (typeof hooks.move === 'function') hooks.move(text);
  }

  // what a DOM node stands for: a target, a square (or a piece on it), a hand piece
  function hitOf(node) {
    while (node && node !== svg && node.getAttribute) {
      if (node.classList && node.classList.contains('target')) return { sq: node.getAttribute('data-square'), target: true };
      if (node.classList && node.classList.contains('hand-piece')) {
        return { drop: node.getAttribute('data-drop'), seat: Number(node.getAttribute('data-seat')) };
      }
      if (node.hasAttribute('data-square')) return { sq: node.getAttribute('data-square') };
      node = node.parentNode;
    }
    return null;
  }

  function clickHit(hit) {
    if (!hit || (view && view.replay) || sending) return;
    if (hit.sq && sel && (hit.target || movesOf(sel).some((m) => m.to === hit.sq))) {
      play(sel, hit.sq);
      return;
    }
    let next = null;
    if (hit.drop && hit.seat === you()) next = { drop: hit.drop };
    else if (hit.sq) next = { from: hit.sq };
    if (next && movesOf(next).length > 0 && !sameSel(next, sel)) sel = next;
    else sel = null;
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
      if (!hit || hit.target) return null;
      let s = null;
      if (hit.drop && hit.seat === you()) s = { drop: hit.drop };
      else if (hit.sq) s = { from: hit.sq };
      return s && movesOf(s).length > 0 ? s : null;
    },
    lift(s) {
      sel = s;
      safeDraw();
      const node = s.from
        ? svg.querySelector(`.piece[data-square="${s.from}"]`)
        : svg.querySelector(`.hand-piece[data-drop="${s.drop}"][data-seat="${you()}"]`);
      if (node) svg.appendChild(node);
      return node;
    },
    follow(node, p) {
      node.setAttribute('transform', `translate(${p.x - W / 2},${p.y - H / 2})`);
    },
    drop(s, under) {
      const hit = under ? hitOf(under) : null;
      if (hit && hit.sq && movesOf(s).some((m) => m.to === hit.sq)) play(s, hit.sq);
      else safeDraw();
    },
  });

  let lastPortrait = null;
  window.addEventListener('resize', () => {
    if (!view) return;
    const p = portrait();
    if (p !== lastPortrait) {
      lastPortrait = p;
      safeDraw();
    }
  });

  return {
    render(v) {
      view = v && typeof v === 'object' ? v : null;
      sending = false;
      lastPortrait = portrait();
      safeDraw();
    },
  };
}
