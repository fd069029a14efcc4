// The Siguo Junqi (四国军棋) board for qiyi play: an SVG drawn from hello.geometry
// (stations, rail edges, step edges), turned so that the viewer's seat is at the bottom.
// It draws the pieces of `state.board`, the last move and its report, public flags,
// the deployment phase (swap two of your pieces to change the lineup) and, when asked,
// this seat's odds on hidden pieces. See board.js for the board interface.
//
// A hidden piece (rank null, or a rank the replay view does not show) is drawn as `?`
// and carries no rank anywhere in the DOM.

import { el, svgPoint } from './svg.js';
import { rankLabel, rankName, rankTag, isRank } from './ranks.js';

const U = 40; // pixels per board unit
const SEATS = ['S', 'E', 'N', 'W'];
const FILES = 'abcdefghijklmnopq';
const PW = 34; // piece width
const PH = 24; // piece height

const REPORT = {
  m: { zh: '移动', en: 'moved' },
  w: { zh: '进攻方胜', en: 'attacker won' },
  l: { zh: '进攻方阵亡', en: 'attacker lost' },
  b: { zh: '同归于尽', en: 'both removed' },
};


function stationName(x, y) {
  return FILES[x + 8] + String(9 - y);
}

function seatIndex(s) {
  if (Number.isInteger(s)) return s;
  if (typeof s === 'string') {
    const i = SEATS.indexOf(s);
    return i >= 0 ? i : null;
  }
  return null;
}

// The board from the rules, used only when the server sent no geometry (e.g. a replay
// of a Junqi record while another game is live). The server's geometry is preferred.
export function defaultGeometry() {
  const stations = [];
  const camps = new Set([6, 8, 12, 16, 18]);
  const hqs = new Set([26, 28]);
  const place = [
    (r, c) => [c - 2, 3 + r],
    (r, c) => [3 + r, 2 - c],
    (r, c) => [2 - c, -3 - r],
    (r, c) => [-3 - r, c - 2],
  ];
  for (let s = 0; s < 4; s++) {
    for (let i = 0; i < 30; i++) {
      const r = Math.floor(i / 5);
      const c = i % 5;
      const [x, y] = place[s](r, c);
      let kind = 'road';
      if (camps.has(i)) kind = 'camp';
      else if (hqs.has(i)) kind = 'hq';
      else if (r <= 4 && (r === 0 || r === 4 || c === 0 || c === 4)) kind = 'rail';
      stations.push({ name: stationName(x, y), x, y, kind, seat: s });
    }
  }
  for (const y of [-2, 0, 2]) for (const x of [-2, 0, 2]) stations.push({ name: stationName(x, y), x, y, kind: 'rail', seat: null });
  const rails = [];
  const steps = [];
  for (let a = 0; a < stations.length; a++) {
    for (let b = a + 1; b < stations.length; b++) {
      const p = stations[a];
      const q = stations[b];
      const dx = Math.abs(p.x - q.x);
      const dy = Math.abs(p.y - q.y);
      const bothRail = p.kind === 'rail' && q.kind === 'rail';
      const centre = p.seat === null && q.seat === null;
      if (bothRail && ((dx + dy === 1) || (centre && dx + dy === 2 && (dx === 0 || dy === 0)))) {
        rails.push([p.name, q.name]);
      }
      if (bothRail && dx === 1 && dy === 1 && p.seat !== null && q.seat !== null && p.seat !== q.seat) {
        rails.push([p.name, q.name]); // the four corner arcs
      }
      const crossSeat = p.seat !== null && q.seat !== null && p.seat !== q.seat;
      if (!crossSeat && Math.max(dx, dy) === 1 && (dx + dy === 1 || p.kind === 'camp' || q.kind === 'camp')) {
        steps.push([p.name, q.name]);
      }
    }
  }
  return { stations, rails, steps };
}

export function createBoard(root, hooks) {
  const wrap = document.createElement('div');
  wrap.className = 'jq-wrap';
  const svg = el('svg', { class: 'jq-board', viewBox: `${-8.75 * U} ${-8.75 * U} ${17.5 * U} ${17.5 * U}`, role: 'img', 'aria-label': 'Junqi board' });
  const caption = document.createElement('div');
  caption.className = 'jq-caption';
  caption.setAttribute('aria-live', 'polite');
  wrap.append(svg, caption);
  root.appendChild(wrap);

  const gStatic = el('g', { class: 'jq-static' }, svg);
  const gLabels = el('g', { class: 'jq-labels' }, svg);
  const gMarks = el('g', { class: 'jq-marks' }, svg);
  const gPieces = el('g', { class: 'jq-pieces' }, svg);
  const gTargets = el('g', { class: 'jq-targets' }, svg);

  let view = null;
  let staticKey = '';
  let geo = null; // {stations: Map name -> station, rails, steps}
  let rot = 0;
  let selected = null;
  let drag = null;
  let suppressClick = false;
  let compact = false; // narrow screens: Chinese labels drawn larger

  function measure() {
    const w = root.clientWidth || window.innerWidth;
    return w > 0 && w < 480;
  }
  if (typeof ResizeObserver === 'function') {
    new ResizeObserver(() => {
      const c = measure();
      if (c !== compact) {
        compact = c;
        if (!(drag && drag.moved)) redraw();
      }
    }).observe(root);
  }

  // ------------------------------------------------------------ coordinates
  function screen(x, y) {
    let px = x;
    let py = y;
    for (let k = 0; k < rot; k++) {
      const t = px;
      px = -py;
      py = t;
    }
    return [px * U, py * U];
  }
  function at(name) {
    const s = geo && geo.stations.get(name);
    return s ? screen(s.x, s.y) : null;
  }

  function loadGeometry(g) {
    const src = g && Array.isArray(g.stations) && g.stations.length ? g : defaultGeometry();
    const stations = new Map();
    for (const s of src.stations) {
      if (!s || typeof s.x !== 'number' || typeof s.y !== 'number') continue;
      const name = typeof s.name === 'string' ? s.name : stationName(s.x, s.y);
      stations.set(name, { name, x: s.x, y: s.y, kind: String(s.kind ?? 'road'), seat: seatIndex(s.seat) });
    }
    const pairs = (list) => (Array.isArray(list) ? list : []).map((e) => (Array.isArray(e) ? e : e && [e.a_name ?? e.a, e.b_name ?? e.b])).filter((e) => e && stations.has(e[0]) && stations.has(e[1]));
    return { stations, rails: pairs(src.rails), steps: pairs(src.steps) };
  }

  // ------------------------------------------------------------ static board
  function drawStatic() {
    gStatic.replaceChildren();
    const bg = el('rect', { class: 'jq-bg', x: -8.7 * U, y: -8.7 * U, width: 17.4 * U, height: 17.4 * U, rx: 14 }, gStatic);
    bg.setAttribute('data-bg', '1');
    // seat areas, tinted
    const area = [[-2.55, 2.55, 5.1, 6.0]]; // S: x, y, w, h in S frame
    for (let s = 0; s < 4; s++) {
      const [ax, ay, aw, ah] = area[0];
      const corners = [[ax, ay], [ax + aw, ay + ah]].map(([x, y]) => {
        let px = x;
        let py = y;
        for (let k = 0; k < s; k++) {
          const t = px;
          px = py;
          py = -t;
        }
        return screen(px, py);
      });
      const x0 = Math.min(corners[0][0], corners[1][0]);
      const y0 = Math.min(corners[0][1], corners[1][1]);
      el('rect', { class: `jq-area seat-${s}`, x: x0, y: y0, width: Math.abs(corners[0][0] - corners[1][0]), height: Math.abs(corners[0][1] - corners[1][1]), rx: 10 }, gStatic);
    }
    el('rect', { class: 'jq-centre', x: -2.55 * U, y: -2.55 * U, width: 5.1 * U, height: 5.1 * U, rx: 10 }, gStatic);

    const gSteps = el('g', { class: 'jq-steps' }, gStatic);
    for (const [a, b] of geo.steps) {
      const p = at(a);
      const q = at(b);
      el('line', { x1: p[0], y1: p[1], x2: q[0], y2: q[1] }, gSteps);
    }
    const gRails = el('g', { class: 'jq-rails' }, gStatic);
    const gTies = el('g', { class: 'jq-ties' }, gStatic);
    for (const [a, b] of geo.rails) {
      const sa = geo.stations.get(a);
      const sb = geo.stations.get(b);
      const p = at(a);
      const q = at(b);
      let d;
      if (sa.x !== sb.x && sa.y !== sb.y) {
        // a corner arc: bend towards the centre
        const c1 = [sa.x, sb.y];
        const c2 = [sb.x, sa.y];
        const c = Math.hypot(...c1) < Math.hypot(...c2) ? c1 : c2;
        const cp = screen(c[0], c[1]);
        d = `M${p[0]},${p[1]} Q${cp[0]},${cp[1]} ${q[0]},${q[1]}`;
      } else {
        d = `M${p[0]},${p[1]} L${q[0]},${q[1]}`;
      }
      el('path', { d }, gRails);
      el('path', { d }, gTies);
    }
    const gSt = el('g', { class: 'jq-stations' }, gStatic);
    for (const s of geo.stations.values()) {
      const [x, y] = screen(s.x, s.y);
      const g = el('g', { class: `station kind-${s.kind}${s.seat === null ? ' centre' : ''}`, 'data-square': s.name, transform: `translate(${x},${y})` }, gSt);
      if (s.kind === 'camp') {
        el('circle', { class: 'st', r: 15 }, g);
      } else if (s.kind === 'hq') {
        el('rect', { class: 'st', x: -18, y: -13, width: 36, height: 26, rx: 13 }, g);
        el('rect', { class: 'st-inner', x: -14, y: -9, width: 28, height: 18, rx: 9 }, g);
      } else {
        el('rect', { class: 'st', x: -13, y: -9, width: 26, height: 18, rx: 3 }, g);
      }
      el('rect', { class: 'hit', x: -U / 2, y: -U / 2, width: U, height: U }, g);
    }
  }

  function drawLabels(st) {
    gLabels.replaceChildren();
    const seats = Array.isArray(st.seats) ? st.seats : [];
    for (let s = 0; s < 4; s++) {
      const seat = seats[s];
      const info = typeof seat === 'string' ? { name: seat } : seat || {};
      let px = 5.6;
      let py = 6.4;
      for (let k = 0; k < s; k++) {
        const t = px;
        px = py;
        py = -t;
      }
      const [x, y] = screen(px, py);
      const cls = ['jq-seat-label', `seat-${s}`];
      if (info.out) cls.push('out');
      if (st.turn === s && st.phase === 'play') cls.push('turn');
      if (st.you === s) cls.push('you');
      const g = el('g', { class: cls.join(' '), transform: `translate(${x},${y})` }, gLabels);
      el('circle', { class: 'dot', cx: -40, cy: -7, r: 9 }, g);
      const name = el('text', { class: 'name', x: -24, y: -1 }, g);
      name.textContent = String(info.name ?? SEATS[s]);
      const who = el('text', { class: 'who', x: -40, y: 20 }, g);
      let w = '';
      if (info.player === 'you') w = 'you';
      else if (info.player === 'engine') w = info.label ? String(info.label) : 'engine';
      else if (info.player === 'human') w = info.label ? String(info.label) : 'human';
      if (info.out) w = (w ? w + ' · ' : '') + 'out';
      who.textContent = w;
      if (st.turn === s && st.phase === 'play') {
        const t = el('text', { class: 'to-move', x: -40, y: 38 }, g);
        t.textContent = st.you === s ? 'your move' : 'to move';
      }
    }
  }

  // ------------------------------------------------------------ pieces and marks
  function currentPieces(st) {
    const out = [];
    const b = st.board && typeof st.board === 'object' ? st.board : {};
    const list = Array.isArray(b.pieces) ? b.pieces : [];
    const deploying = isDeploy(st);
    for (const p of list) {
      if (!p || typeof p.at !== 'string') continue;
      const seat = seatIndex(p.seat);
      if (deploying && seat === st.you) continue; // drawn from deploy below
      out.push({ at: p.at, seat, rank: isRank(p.rank) ? p.rank : null });
    }
    if (deploying) {
      const d = st.deploy;
      const lineup = String(d.lineup);
      d.slots.forEach((sq, i) => {
        if (typeof sq === 'string') out.push({ at: sq, seat: st.you, rank: isRank(lineup[i]) ? lineup[i] : null, slot: i });
      });
    }
    return out;
  }

  function isDeploy(st) {
    const d = st.deploy;
    return st.phase === 'deploy' && d && typeof d === 'object' && typeof d.lineup === 'string' && Array.isArray(d.slots) && !view.replay;
  }

  function legalMap(st) {
    const m = new Map();
    if (view.replay || st.phase !== 'play' || !Array.isArray(st.legal)) return m;
    for (const mv of st.legal) {
      if (!mv || typeof mv.from !== 'string' || typeof mv.to !== 'string') continue;
      if (!m.has(mv.from)) m.set(mv.from, []);
      m.get(mv.from).push(mv);
    }
    return m;
  }

  function lastPly(st) {
    const last = st.last;
    if (!last || typeof last.from !== 'string' || typeof last.to !== 'string') return null;
    const moves = Array.isArray(st.moves) ? st.moves : [];
    for (let i = moves.length - 1; i >= 0; i--) {
      const m = moves[i];
      const text = m && typeof m === 'object' ? String(m.text ?? '') : String(m ?? '');
      if (text.startsWith(last.from + last.to)) return { seat: m && m.seat, text, rest: text.slice(last.from.length + last.to.length) };
    }
    return { seat: null, text: last.from + last.to, rest: '' };
  }

  function drawMarks(st) {
    gMarks.replaceChildren();
    const last = st.last;
    if (last && typeof last.to === 'string') {
      const f = typeof last.from === 'string' ? at(last.from) : null;
      const t = at(last.to);
      if (f && t) el('line', { class: 'jq-last-path', x1: f[0], y1: f[1], x2: t[0], y2: t[1] }, gMarks);
      if (f) el('rect', { class: 'jq-last-from', x: f[0] - 21, y: f[1] - 16, width: 42, height: 32, rx: 7 }, gMarks);
      if (t) el('rect', { class: 'jq-last-to', x: t[0] - 21, y: t[1] - 16, width: 42, height: 32, rx: 7 }, gMarks);
    }
  }

  // piece elements are kept per square while a piece stands there, so that a redraw
  // (a selection, a state that changed nothing here) does not replace them
  const pieceEls = new Map(); // square -> {g, sig}

  function drawPieces(st) {
    gTargets.replaceChildren();
    const lang = view.lang === 'en' ? 'en' : 'zh';
    const pieces = currentPieces(st);
    const legal = legalMap(st);
    const flags = new Set(Array.isArray(st.board?.public_flags) ? st.board.public_flags : []);
    const show = view.replay && Array.isArray(view.showSeats) ? new Set(view.showSeats) : null;
    const deploying = isDeploy(st);
    const odds = view.odds instanceof Map ? view.odds : null;
    const occupied = new Set();
    if (selected && !pieces.some((p) => p.at === selected && p.seat === st.you && (deploying || legal.has(p.at)))) selected = null;

    const seen = new Set();
    for (const p of pieces) {
      const xy = at(p.at);
      if (!xy || seen.has(p.at)) continue;
      seen.add(p.at);
      occupied.add(p.at);
      const shown = p.rank && (!show || show.has(p.seat) || flags.has(p.at)) ? p.rank : null;
      const mine = p.seat === st.you && !view.replay;
      const cls = ['piece', `seat-${p.seat}`];
      cls.push(shown ? 'known' : 'hidden');
      if (mine) cls.push('mine');
      if (mine && (deploying ? !st.deploy.ready : legal.has(p.at))) cls.push('movable');
      if (selected === p.at) cls.push('selected');
      if (flags.has(p.at)) cls.push('public-flag');
      const label = shown ? rankLabel(shown, lang) : '?';
      let oddsText = '';
      let oddsTitle = '';
      if (!shown && odds && odds.has(p.at) && p.seat !== st.you) {
        const guesses = odds.get(p.at).filter((o) => Array.isArray(o) && isRank(o[0]) && typeof o[1] === 'number');
        if (guesses.length) {
          const top = guesses.slice(0, 2);
          oddsText = `${rankTag(top[0][0], lang)}${Math.round(top[0][1])}%`;
          oddsTitle = top.map((o) => `${rankName(o[0], lang)} ${Math.round(o[1])}%`).join(', ');
        }
      }
      const sig = [p.seat, shown || '', label, compact, flags.has(p.at), oddsText, oddsTitle, lang].join('|');
      let entry = pieceEls.get(p.at);
      if (!entry) {
        entry = { g: el('g', null, gPieces), sig: null };
        pieceEls.set(p.at, entry);
      }
      const g = entry.g;
      g.setAttribute('class', cls.join(' '));
      g.setAttribute('data-square', p.at);
      g.setAttribute('data-seat', String(p.seat));
      g.setAttribute('transform', `translate(${xy[0]},${xy[1]})`);
      if (entry.sig === sig) continue;
      entry.sig = sig;
      g.replaceChildren();
      el('rect', { class: 'body', x: -PW / 2, y: -PH / 2, width: PW, height: PH, rx: 5 }, g);
      // narrow screens: Chinese names drawn larger, squeezed to the piece's width
      const big = compact && lang === 'zh' && shown;
      const t = el('text', { class: `label${label.length > 3 ? ' long' : ''}${big ? ' compact' : ''}`, y: 1, textLength: big ? PW - 6 : null, lengthAdjust: big ? 'spacingAndGlyphs' : null }, g);
      t.textContent = label;
      if (shown) {
        const title = el('title', null, g);
        title.textContent = `${rankName(shown, lang)} (${p.at})`;
      }
      if (flags.has(p.at)) {
        const f = el('g', { class: 'flag-mark', transform: `translate(${PW / 2 - 4},${-PH / 2 - 2})` }, g);
        el('path', { d: 'M0,0 L0,-12 L9,-8.5 L0,-5', class: 'pennant' }, f);
      }
      if (oddsText) {
        const ob = el('g', { class: 'odds', transform: `translate(0,${PH / 2 + 6})` }, g);
        el('rect', { x: -22, y: -6, width: 44, height: 12, rx: 3 }, ob);
        const ot = el('text', { y: 0.5 }, ob);
        ot.textContent = oddsText;
        const tt = el('title', null, g);
        tt.textContent = oddsTitle;
      }
    }
    for (const [sq, entry] of pieceEls) {
      if (!seen.has(sq)) {
        entry.g.remove();
        pieceEls.delete(sq);
      }
    }

    // flags made public whose piece this view does not list (should not happen; mark the square)
    for (const sq of flags) {
      if (occupied.has(sq)) continue;
      const xy = at(sq);
      if (xy) el('circle', { class: 'jq-flag-ring', cx: xy[0], cy: xy[1], r: 18 }, gMarks);
    }

    if (selected && !deploying) {
      for (const mv of legal.get(selected) || []) {
        const xy = at(mv.to);
        if (!xy) continue;
        const attack = occupied.has(mv.to);
        el('circle', { class: `target${attack ? ' attack' : ''}`, 'data-square': mv.to, cx: xy[0], cy: xy[1], r: attack ? 19 : 8 }, gTargets);
      }
    }
    if (selected && deploying) {
      for (const p of pieces) {
        if (p.seat === st.you && p.at !== selected) {
          const xy = at(p.at);
          if (xy) el('rect', { class: 'swap', 'data-square': p.at, x: xy[0] - PW / 2 - 3, y: xy[1] - PH / 2 - 3, width: PW + 6, height: PH + 6, rx: 7 }, gTargets);
        }
      }
    }
  }

  function drawCaption(st) {
    const lang = view.lang === 'en' ? 'en' : 'zh';
    if (isDeploy(st)) {
      caption.textContent = st.deploy.ready
        ? (lang === 'en' ? 'Lineup final — waiting for the other seats.' : '布阵完毕，等待其他玩家。')
        : (lang === 'en' ? 'Deployment: click two of your pieces (or drag one onto another) to swap them.' : '布阵：点击（或拖动）两枚己方棋子交换位置。');
      caption.className = 'jq-caption deploy';
      return;
    }
    caption.className = 'jq-caption';
    const ply = lastPly(st);
    if (!ply) {
      caption.textContent = '';
      return;
    }
    const seats = Array.isArray(st.seats) ? st.seats : [];
    const who = ply.seat != null && seats[ply.seat] ? String(seats[ply.seat].name ?? seats[ply.seat]) : '';
    const parts = [];
    const rest = /=[mwlb]/.test(ply.rest) || typeof st.last.report !== 'string' ? ply.rest : ply.rest + st.last.report;
    const rep = /=([mwlb])/.exec(rest);
    if (rep) parts.push(REPORT[rep[1]][lang]);
    const shown = [...rest.matchAll(/\+([a-q]\d{1,2})/g)].map((m) => m[1]);
    if (shown.length) parts.push(lang === 'en' ? `flag shown at ${shown.join(', ')}` : `军旗亮出 ${shown.join('、')}`);
    if (rest.includes('#')) parts.push(lang === 'en' ? 'flag taken' : '夺旗');
    const move = `${st.last.from}→${st.last.to}`;
    caption.replaceChildren();
    const a = document.createElement('span');
    a.className = 'who';
    if (ply.seat != null) a.dataset.seat = String(ply.seat);
    a.textContent = who;
    const b = document.createElement('span');
    b.textContent = ` ${move}${parts.length ? ' — ' + parts.join(', ') : ''}`;
    caption.append(a, b);
  }

  // ------------------------------------------------------------ interaction
  function squareOf(target) {
    const e = target && target.closest ? target.closest('[data-square]') : null;
    return e && svg.contains(e) ? e.getAttribute('data-square') : null;
  }

  function act(sq) {
    if (!view || !view.state) return;
    const st = view.state;
    if (view.replay) return;
    if (isDeploy(st)) {
      if (st.deploy.ready) {
        selected = null;
        redraw();
        return;
      }
      const slots = st.deploy.slots;
      const i = slots.indexOf(sq);
      if (i < 0) {
        selected = null;
      } else if (selected == null || selected === sq) {
        selected = selected === sq ? null : sq;
      } else {
        const j = slots.indexOf(selected);
        selected = null;
        if (j >= 0) {
          const l = String(st.deploy.lineup).split('');
          const t = l[i];
          l[i] = l[j];
          l[j] = t;
          hooks.lineup(l.join(''));
        }
      }
      redraw();
      return;
    }
    const legal = legalMap(st);
    if (selected && sq) {
      const mv = (legal.get(selected) || []).find((m) => m.to === sq);
      if (mv) {
        selected = null;
        redraw();
        hooks.move(String(mv.text));
        return;
      }
    }
    if (sq && sq !== selected && legal.has(sq)) selected = sq;
    else selected = null;
    redraw();
  }

  svg.addEventListener('click', (e) => {
    if (suppressClick) {
      suppressClick = false;
      return;
    }
    act(squareOf(e.target));
  });


  svg.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 || !view || view.replay) return;
    const pe = e.target.closest ? e.target.closest('.piece.movable') : null;
    if (!pe) return;
    drag = { sq: pe.getAttribute('data-square'), x: e.clientX, y: e.clientY, id: e.pointerId, el: null, moved: false };
  });
  svg.addEventListener('pointermove', (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    if (!drag.moved) {
      if (Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 6) return;
      drag.moved = true;
      if (selected !== drag.sq) {
        selected = drag.sq;
        redraw();
      }
      drag.el = gPieces.querySelector(`.piece[data-square="${drag.sq}"]`);
      if (drag.el) {
        drag.el.classList.add('dragging');
        svg.appendChild(gPieces); // above the targets while dragging
      }
      try {
        svg.setPointerCapture(e.pointerId);
      } catch (_) {}
    }
    if (drag.el) {
      const p = svgPoint(svg, e);
      const [x, y] = p ? [p.x, p.y] : [0, 0];
      drag.el.setAttribute('transform', `translate(${x},${y})`);
    }
    e.preventDefault();
  });
  function endDrag(e, cancelled) {
    if (!drag || e.pointerId !== drag.id) return;
    const d = drag;
    drag = null;
    svg.appendChild(gTargets); // restore layer order
    if (!d.moved) return;
    suppressClick = true;
    setTimeout(() => {
      suppressClick = false;
    }, 0);
    try {
      svg.releasePointerCapture(e.pointerId);
    } catch (_) {}
    if (cancelled) {
      redraw();
      return;
    }
    const hit = document.elementsFromPoint(e.clientX, e.clientY).find((n) => n !== d.el && !(d.el && d.el.contains(n)) && n.closest && n.closest('[data-square]') && svg.contains(n));
    const sq = hit ? squareOf(hit) : null;
    if (sq && sq !== d.sq) {
      selected = d.sq;
      act(sq);
    } else {
      redraw();
    }
  }
  svg.addEventListener('pointerup', (e) => endDrag(e, false));
  svg.addEventListener('pointercancel', (e) => endDrag(e, true));

  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && selected) {
      selected = null;
      redraw();
    }
  });

  // ------------------------------------------------------------ render
  function redraw() {
    if (!view || !view.state || !geo) return;
    const st = view.state;
    drawLabels(st);
    drawMarks(st);
    drawPieces(st);
    drawCaption(st);
    svg.dataset.phase = String(st.phase ?? '');
  }

  function render(v) {
    if (!v || !v.state) return;
    compact = measure();
    const prevMoves = view && view.state && Array.isArray(view.state.moves) ? view.state.moves.length : -1;
    view = v;
    const st = v.state;
    const you = Number.isInteger(st.you) && st.you >= 0 && st.you < 4 ? st.you : 0;
    const g = v.geometry ?? null;
    const key = `${you}|${g ? (g.stations?.length ?? 0) + ':' + (g.rails?.length ?? 0) + ':' + (g.steps?.length ?? 0) : 'default'}`;
    if (!geo || key !== staticKey || g !== geo.src) {
      geo = loadGeometry(g);
      geo.src = g;
      rot = you;
      staticKey = key;
      drawStatic();
    }
    const nowMoves = Array.isArray(st.moves) ? st.moves.length : -1;
    if (nowMoves !== prevMoves || st.phase !== 'play' && !isDeploy(st)) {
      if (!drag) selected = null;
    }
    if (drag && drag.moved) return; // redrawn when the drag ends
    redraw();
  }

  return { render };
}
