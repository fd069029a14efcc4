// qiyi play: the page shell. It connects to the server's WebSocket, keeps the latest
// `state`, draws the panels (turn, status, seats, moves, events, options, replay) and
// hands the board to one board module per game. The protocol is in docs/play.md; the
// page holds no rules and no hidden state, it only sends intents.
//
// Board module interface (chess.js, shogi.js, foursquare.js, junqi.js all implement it):
//
//   export function createBoard(root, hooks)
//     root: an empty <div> (#board); the module puts its <svg> in it.
//     returns { render(view) }, called after every state (or replay frame) and whenever
//     the language or the odds change.
//   view = { state, geometry, lang, replay, showSeats, odds }
//     state:     the latest `state` message; in replay a state-like object built from a
//                frame: {game, board, last, moves, legal: [], you, turn: null,
//                phase: 'over', seats, deploy: null}
//     geometry:  hello.geometry (Junqi) or null
//     lang:      'zh' | 'en' (rank names)
//     replay:    true while a replay frame is shown
//     showSeats: in replay, the seats whose ranks to show (array of seat indices); else null
//     odds:      Junqi only, when the odds panel is on: Map square -> [[rank, percent], ...]
//                (this seat's own inferences about hidden pieces); else null
//   hooks.move(text)   -> sends {"type":"move","move":text}
//   hooks.lineup(text) -> sends {"type":"lineup","lineup":text} (Junqi deployment swaps)
//   hooks.choose(title, options:[{label, value}]) -> Promise<value|null>
//                         (the picker dialog #choice, e.g. for promotions)
//
// DOM contract the boards keep: every clickable square/station has data-square; every
// piece has class `piece`, data-square and data-seat; legal destinations after a
// selection have class `target` and data-square; the selected piece has class `selected`.

import * as chess from './chess.js';
import * as shogi from './shogi.js';
import * as foursquare from './foursquare.js';
import * as junqi from './junqi.js';

const MODULES = { chess, shogi, foursquare, junqi };
const GAME_NAMES = { chess: 'Chess', shogi: 'Shogi', foursquare: 'FourSquare', junqi: '四国军棋 Junqi' };

const $ = (id) => document.getElementById(id);

const app = {
  ws: null,
  connected: false,
  backoff: 500,
  reconnectTimer: null,
  hello: null,
  state: null,
  game: null,
  board: null,
  boardGame: null,
  lang: loadLang(),
  events: [],
  odds: null,
  replay: null, // {game, frames, seats, ranks, index, timer, view}
  clockLeft: null,
  clockTimer: null,
  errorTimer: null,
};

function loadLang() {
  try {
    const l = localStorage.getItem('qiyi-play-lang');
    return l === 'en' ? 'en' : 'zh';
  } catch (_) {
    return 'zh';
  }
}

// ---------------------------------------------------------------- connection

function wsUrl() {
  const u = new URL('ws', location.href);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.hash = '';
  u.search = '';
  return u.href;
}

function connect() {
  clearTimeout(app.reconnectTimer);
  let ws;
  try {
    ws = new WebSocket(wsUrl());
  } catch (e) {
    scheduleReconnect();
    return;
  }
  app.ws = ws;
  ws.onopen = () => {
    if (app.ws !== ws) return;
    app.backoff = 500;
    setConnected(true);
    sendCurrentOptions();
  };
  ws.onmessage = (ev) => {
    if (app.ws !== ws) return;
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch (_) {
      return;
    }
    try {
      handle(msg);
    } catch (e) {
      console.error('qiyi play: while handling', msg && msg.type, e);
    }
  };
  ws.onclose = () => {
    if (app.ws !== ws) return;
    app.ws = null;
    setConnected(false);
    scheduleReconnect();
  };
  ws.onerror = () => {
    // onclose follows and reconnects
  };
}

function scheduleReconnect() {
  clearTimeout(app.reconnectTimer);
  const delay = app.backoff;
  app.backoff = Math.min(app.backoff * 2, 10000);
  $('conn-text').textContent = `reconnecting in ${Math.round(delay / 100) / 10}s…`;
  app.reconnectTimer = setTimeout(connect, delay);
}

function setConnected(on) {
  app.connected = on;
  document.body.dataset.connected = on ? 'true' : 'false';
  $('conn-text').textContent = on ? 'connected' : 'disconnected';
}

function send(obj) {
  if (!app.ws || app.ws.readyState !== WebSocket.OPEN) {
    showError('not connected to the server');
    return false;
  }
  app.ws.send(JSON.stringify(obj));
  return true;
}

// ---------------------------------------------------------------- messages

function handle(msg) {
  if (!msg || typeof msg !== 'object') return;
  switch (msg.type) {
    case 'hello':
      app.hello = msg;
      if (typeof msg.game === 'string') setGame(msg.game);
      break;
    case 'state':
      onState(msg);
      break;
    case 'error':
      showError(String(msg.message ?? 'error'));
      break;
    case 'replay':
      onReplay(msg);
      break;
    case 'odds':
      onOdds(msg);
      break;
    default:
      break; // unknown messages are ignored
  }
}

function onState(st) {
  const prev = app.state;
  app.state = st;
  if (typeof st.game === 'string') setGame(st.game);
  if (Array.isArray(st.events)) {
    for (const e of st.events) {
      const text = e && typeof e === 'object' ? e.text : e;
      if (text == null || text === '') continue;
      const last = app.events[app.events.length - 1];
      if (last && last.text === String(text)) last.count += 1;
      else app.events.push({ text: String(text), count: 1 });
    }
    if (app.events.length > 12) app.events = app.events.slice(-12);
  }
  // odds belong to a position: forget them when the game restarts
  if (prev && Array.isArray(prev.moves) && Array.isArray(st.moves) && st.moves.length < prev.moves.length) {
    app.odds = null;
  }
  startClock(st.clock);
  renderAll();
}

function onOdds(msg) {
  const m = new Map();
  if (Array.isArray(msg.pieces)) {
    for (const p of msg.pieces) {
      if (p && typeof p.at === 'string' && Array.isArray(p.odds)) m.set(p.at, p.odds);
    }
  }
  app.odds = m;
  renderBoard();
}

function setGame(game) {
  app.game = game;
  document.body.dataset.game = game;
  $('game-name').textContent = GAME_NAMES[game] ? `· ${GAME_NAMES[game]}` : '';
}

// ---------------------------------------------------------------- board

const hooks = {
  move(text) {
    if (app.replay) return;
    send({ type: 'move', move: String(text) });
  },
  lineup(text) {
    if (app.replay) return;
    send({ type: 'lineup', lineup: String(text) });
  },
  choose(title, options) {
    return choose(title, options);
  },
};

function ensureBoard(game) {
  if (app.board && app.boardGame === game) return app.board;
  const root = $('board');
  root.replaceChildren();
  app.board = null;
  app.boardGame = game;
  const mod = MODULES[game];
  if (!mod || typeof mod.createBoard !== 'function') {
    root.textContent = `no board for ${game}`;
    return null;
  }
  try {
    app.board = mod.createBoard(root, hooks);
  } catch (e) {
    console.error('qiyi play: createBoard', e);
    app.board = null;
  }
  return app.board;
}

function currentView() {
  if (app.replay) {
    const r = app.replay;
    const frame = r.frames[r.index] || {};
    const liveYou = app.state && Number.isInteger(app.state.you) ? app.state.you : 0;
    const you = r.view === 'all' || r.view == null ? liveYou : Number(r.view);
    const showSeats = r.view === 'all' || r.view == null ? r.ranks.slice() : r.ranks.filter((s) => s === Number(r.view));
    return {
      state: {
        game: r.game,
        board: frame.board ?? null,
        last: frame.last ?? null,
        moves: Array.isArray(frame.moves) ? frame.moves : [],
        legal: [],
        you,
        turn: null,
        phase: 'over',
        seats: r.seats,
        deploy: null,
      },
      geometry: r.game === 'junqi' && app.hello ? app.hello.geometry ?? null : null,
      lang: app.lang,
      replay: true,
      showSeats,
      odds: null,
    };
  }
  if (!app.state) return null;
  return {
    state: app.state,
    geometry: app.hello ? app.hello.geometry ?? null : null,
    lang: app.lang,
    replay: false,
    showSeats: null,
    odds: $('odds').checked && app.odds ? app.odds : null,
  };
}

function renderBoard() {
  const view = currentView();
  if (!view) return;
  const board = ensureBoard(view.state.game || app.game);
  if (!board) return;
  try {
    board.render(view);
  } catch (e) {
    console.error('qiyi play: render', e);
  }
}

// ---------------------------------------------------------------- panels

function seatList(st) {
  const seats = Array.isArray(st && st.seats) ? st.seats : [];
  return seats.map((s, i) => (typeof s === 'string' ? { name: s, player: '', label: '', out: false } : { name: String(s?.name ?? i), player: s?.player ?? '', label: s?.label ?? '', out: !!s?.out }));
}

function seatName(st, i) {
  const seats = seatList(st);
  return seats[i] ? seats[i].name : i == null ? '' : String(i);
}

function playerText(seat) {
  if (seat.player === 'you') return 'you';
  if (seat.player === 'engine') return seat.label ? `engine (${seat.label})` : 'engine';
  if (seat.player === 'human') return seat.label ? `${seat.label}` : 'human';
  return seat.label || seat.player || '';
}

function renderAll() {
  const st = app.state;
  const body = document.body;
  if (st) {
    body.dataset.phase = st.phase ?? '';
    body.dataset.mine = st.phase === 'play' && st.turn != null && st.turn === st.you ? 'true' : 'false';
  }
  body.dataset.replay = app.replay ? 'true' : 'false';
  renderTurn(st);
  const mine = body.dataset.mine === 'true' && !app.replay;
  const gameName = GAME_NAMES[app.game] ? GAME_NAMES[app.game].split(' ').pop() : '';
  document.title = `${mine ? '● your move · ' : ''}qiyi play${gameName ? ' · ' + gameName : ''}`;
  const result = st && st.phase === 'over' && st.result && st.result.text != null ? String(st.result.text) : '';
  const status = st && st.status != null ? String(st.status) : '';
  $('result').textContent = result;
  $('status').textContent = status === result ? '' : status;
  renderButtons(st);
  renderSeats(app.replay ? replaySeatsState() : st);
  renderMoves(currentView()?.state ?? st);
  renderEvents();
  renderOptions(st);
  renderReplayPanel();
  renderBoard();
}

function replaySeatsState() {
  return { seats: app.replay.seats, turn: null, you: app.state?.you };
}

function renderTurn(st) {
  const el = $('turn');
  if (app.replay) {
    el.textContent = `Replay — ply ${app.replay.index} of ${app.replay.frames.length - 1}`;
    return;
  }
  if (!st) {
    el.textContent = app.connected ? 'waiting for the server…' : 'connecting…';
    return;
  }
  if (st.phase === 'deploy') {
    const ready = st.deploy && st.deploy.ready;
    el.textContent = ready ? 'Deployment — you are ready; waiting for the others' : 'Deployment — arrange your pieces, then Ready';
    return;
  }
  if (st.phase === 'over') {
    el.textContent = 'Game over';
    return;
  }
  if (st.turn == null) {
    el.textContent = '';
    return;
  }
  const seats = seatList(st);
  const s = seats[st.turn];
  const name = s ? s.name : String(st.turn);
  const who = st.turn === st.you ? 'you' : s ? playerText(s) : '';
  el.textContent = who ? `${name} to move — ${who}` : `${name} to move`;
}

function renderButtons(st) {
  const live = !app.replay;
  const phase = st ? st.phase : null;
  const deploy = phase === 'deploy' && st.deploy;
  $('random-lineup').hidden = !(live && deploy);
  $('ready').hidden = !(live && deploy);
  $('ready').disabled = !!(deploy && st.deploy.ready);
  $('ready').textContent = deploy && st.deploy.ready ? 'Ready ✓' : 'Ready';
  $('random-lineup').disabled = !!(deploy && st.deploy.ready);
  $('claim-win').hidden = !(live && st && st.claim === true && phase === 'play');
  $('resign').disabled = !(st && (phase === 'play' || phase === 'deploy'));
  $('lang').textContent = app.lang === 'zh' ? 'EN' : '中';
  $('lang').title = app.lang === 'zh' ? 'show rank names in English' : '显示中文棋子名';

  const sel = $('seat-select');
  const seats = seatList(st);
  const key = seats.map((s) => s.name).join(',');
  if (sel.dataset.key !== key) {
    sel.replaceChildren(...seats.map((s, i) => new Option(s.name, String(i))));
    sel.dataset.key = key;
    if (st && Number.isInteger(st.you)) sel.value = String(st.you);
  }
  if (st && Number.isInteger(st.you) && sel.dataset.you !== String(st.you)) {
    sel.value = String(st.you);
    sel.dataset.you = String(st.you);
  }
}

function renderSeats(st) {
  const ul = $('seats');
  const seats = seatList(st);
  const sig = JSON.stringify([seats, st && st.turn, st && st.you]);
  if (ul.dataset.sig === sig) return;
  ul.dataset.sig = sig;
  ul.replaceChildren(
    ...seats.map((s, i) => {
      const li = document.createElement('li');
      li.dataset.seat = String(i);
      if (s.out) li.classList.add('out');
      if (st && st.turn === i) li.classList.add('turn');
      if (st && st.you === i) li.classList.add('you');
      const sw = document.createElement('span');
      sw.className = 'swatch';
      const name = document.createElement(s.out ? 's' : 'span');
      name.className = 'seat-name';
      name.textContent = s.name;
      const who = document.createElement(s.out ? 's' : 'span');
      who.className = 'seat-player';
      who.textContent = playerText(s) + (s.out ? ' — out' : '');
      li.append(sw, name, who);
      return li;
    }),
  );
}

function renderMoves(st) {
  const ol = $('moves');
  const moves = st && Array.isArray(st.moves) ? st.moves : [];
  // rebuild only what changed, to keep scrolling calm
  const items = moves.map((m) => {
    const seat = m && typeof m === 'object' ? m.seat : null;
    const text = m && typeof m === 'object' ? String(m.text ?? '') : String(m);
    return { seat, text };
  });
  const atBottom = ol.scrollHeight - ol.scrollTop - ol.clientHeight < 40;
  // keep the items that did not change (a calm list, and stable elements for tests)
  const kids = ol.children;
  let same = 0;
  while (same < kids.length && same < items.length && kids[same].dataset.key === `${items[same].seat}:${items[same].text}`) same++;
  if (same === kids.length && same === items.length) return;
  while (kids.length > same) ol.lastElementChild.remove();
  for (const m of items.slice(same)) {
    const li = document.createElement('li');
    li.dataset.seat = m.seat == null ? '' : String(m.seat);
    li.dataset.key = `${m.seat}:${m.text}`;
    const who = document.createElement('span');
    who.className = 'ply-seat';
    const txt = document.createElement('span');
    txt.className = 'ply-text';
    if (m.text.startsWith('out:')) {
      who.textContent = m.text.slice(4);
      txt.textContent = 'out';
      li.classList.add('elimination');
    } else {
      who.textContent = seatName(st, m.seat);
      txt.textContent = m.text;
    }
    li.append(who, ' ', txt);
    ol.appendChild(li);
  }
  if (atBottom || app.replay) {
    const cur = ol.lastElementChild;
    if (cur) ol.scrollTop = ol.scrollHeight;
  }
}

function renderEvents() {
  const ul = $('events');
  const sig = app.events.map((e) => `${e.count}:${e.text}`).join('\n');
  if (ul.dataset.sig === sig) return;
  ul.dataset.sig = sig;
  ul.replaceChildren(
    ...app.events.slice(-8).map((e) => {
      const li = document.createElement('li');
      li.textContent = e.count > 1 ? `${e.text} (×${e.count})` : e.text;
      return li;
    }),
  );
  $('events-panel').classList.toggle('empty', app.events.length === 0);
}

function renderOptions(st) {
  const o = st && st.options && typeof st.options === 'object' ? st.options : null;
  if (o) {
    for (const k of ['movetime', 'skill', 'clock']) {
      const el = $(k);
      if (document.activeElement !== el && o[k] != null) el.value = String(o[k]);
    }
    if (typeof o.odds === 'boolean' && document.activeElement !== $('odds')) $('odds').checked = o.odds;
    if (typeof o.chess960 === 'boolean' && document.activeElement !== $('chess960')) $('chess960').checked = o.chess960;
  }
  if (st && st.board && typeof st.board.chess960 === 'boolean' && !$('chess960').dataset.touched) {
    $('chess960').checked = st.board.chess960;
  }
}

function sendCurrentOptions() {
  // after a reconnect the server keeps its options; only the odds switch is page-side
  if ($('odds').checked) send({ type: 'options', odds: true });
}

// ---------------------------------------------------------------- clock

function startClock(sec) {
  clearInterval(app.clockTimer);
  const el = $('clock-left');
  if (typeof sec !== 'number' || !isFinite(sec)) {
    app.clockLeft = null;
    el.hidden = true;
    return;
  }
  app.clockLeft = sec;
  const started = Date.now();
  const tick = () => {
    const left = Math.max(0, app.clockLeft - (Date.now() - started) / 1000);
    el.textContent = `clock: ${left.toFixed(left < 10 ? 1 : 0)} s`;
    el.classList.toggle('low', left < 10);
  };
  el.hidden = false;
  tick();
  app.clockTimer = setInterval(tick, 200);
}

// ---------------------------------------------------------------- errors, picker

function showError(text) {
  const el = $('error');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(app.errorTimer);
  app.errorTimer = setTimeout(() => {
    el.hidden = true;
  }, 5000);
}

function choose(title, options) {
  const dlg = $('choice');
  $('choice-title').textContent = String(title ?? '');
  const box = $('choice-options');
  const opts = Array.isArray(options) ? options : [];
  box.replaceChildren(
    ...opts.map((o, i) => {
      const b = document.createElement('button');
      b.type = 'submit';
      b.value = String(i);
      b.textContent = String(o.label ?? o.value);
      return b;
    }),
  );
  return new Promise((resolve) => {
    const done = () => {
      dlg.removeEventListener('close', done);
      const v = dlg.returnValue;
      resolve(v !== '' && opts[Number(v)] ? opts[Number(v)].value : null);
    };
    dlg.returnValue = '';
    dlg.addEventListener('close', done);
    try {
      dlg.showModal();
    } catch (_) {
      dlg.removeEventListener('close', done);
      resolve(null);
    }
  });
}

// ---------------------------------------------------------------- replay

function onReplay(msg) {
  const frames = Array.isArray(msg.frames) ? msg.frames : [];
  if (frames.length === 0) {
    showError('the record has no positions');
    return;
  }
  stopAutoplay();
  const seats = seatList({ seats: msg.seats });
  app.replay = {
    game: typeof msg.game === 'string' ? msg.game : app.game,
    frames,
    seats,
    ranks: Array.isArray(msg.ranks) ? msg.ranks.filter((x) => Number.isInteger(x)) : [],
    index: 0,
    timer: null,
    view: 'all',
  };
  const sel = $('replay-view');
  sel.replaceChildren(new Option('all seats', 'all'), ...seats.map((s, i) => new Option(`${s.name}'s view`, String(i))));
  sel.value = 'all';
  $('replay-view').closest('label').hidden = app.replay.game !== 'junqi';
  $('replay-panel').open = true;
  renderAll();
}

function replayGo(i) {
  const r = app.replay;
  if (!r) return;
  r.index = Math.max(0, Math.min(r.frames.length - 1, i));
  if (r.index === r.frames.length - 1) stopAutoplay();
  renderAll();
}

function stopAutoplay() {
  if (app.replay && app.replay.timer) {
    clearInterval(app.replay.timer);
    app.replay.timer = null;
  }
  $('replay-play').textContent = 'Play';
}

function toggleAutoplay() {
  const r = app.replay;
  if (!r) return;
  if (r.timer) {
    stopAutoplay();
    return;
  }
  if (r.index >= r.frames.length - 1) r.index = 0;
  r.timer = setInterval(() => replayGo(r.index + 1), 900);
  $('replay-play').textContent = 'Pause';
  renderAll();
}

function exitReplay() {
  stopAutoplay();
  app.replay = null;
  const root = $('board');
  // the live game may use another board module
  if (app.boardGame !== (app.state?.game ?? app.game)) ensureBoard(app.state?.game ?? app.game);
  root.dataset.replay = 'false';
  renderAll();
}

function renderReplayPanel() {
  const r = app.replay;
  const n = r ? r.frames.length - 1 : 0;
  $('replay-ply').textContent = `ply ${r ? r.index : 0} / ${n}`;
  for (const id of ['replay-first', 'replay-prev', 'replay-next', 'replay-last', 'replay-play', 'replay-view', 'replay-exit']) {
    $(id).disabled = !r;
  }
  if (r) {
    $('replay-first').disabled = $('replay-prev').disabled = r.index === 0;
    $('replay-next').disabled = $('replay-last').disabled = r.index >= n;
  }
}

function loadReplayText(text) {
  const t = String(text ?? '').trim();
  if (!t) {
    showError('the record is empty');
    return;
  }
  if (t.length > 60000) {
    showError('the record is too long (at most 60 000 characters)');
    return;
  }
  send({ type: 'replay', record: t });
}

// ---------------------------------------------------------------- controls

function bind() {
  $('lang').addEventListener('click', () => {
    app.lang = app.lang === 'zh' ? 'en' : 'zh';
    try {
      localStorage.setItem('qiyi-play-lang', app.lang);
    } catch (_) {}
    document.documentElement.lang = app.lang === 'zh' ? 'zh' : 'en';
    renderAll();
  });
  $('resign').addEventListener('click', () => {
    send({ type: 'resign' });
  });
  $('new-game').addEventListener('click', () => {
    const v = Number($('seat-select').value);
    const msg = { type: 'new_game' };
    if (Number.isInteger(v)) msg.seat = v;
    app.events = [];
    app.odds = null;
    if (app.replay) exitReplay();
    send(msg);
  });
  $('random-lineup').addEventListener('click', () => send({ type: 'random_lineup' }));
  $('ready').addEventListener('click', () => send({ type: 'ready' }));
  $('claim-win').addEventListener('click', () => send({ type: 'move', move: 'win' }));

  $('options').addEventListener('submit', (e) => e.preventDefault());
  for (const [id, lo, hi] of [['movetime', 1, 60000], ['skill', 0, 20], ['clock', 0, 86400]]) {
    $(id).addEventListener('change', () => {
      const v = Math.round(Number($(id).value));
      if (!isFinite(v) || $(id).value === '') return;
      const c = Math.max(lo, Math.min(hi, v));
      $(id).value = String(c);
      send({ type: 'options', [id]: c });
    });
  }
  $('odds').addEventListener('change', () => {
    send({ type: 'options', odds: $('odds').checked });
    renderBoard();
  });
  $('chess960').addEventListener('change', () => {
    $('chess960').dataset.touched = '1';
    send({ type: 'options', chess960: $('chess960').checked });
  });

  $('replay-file').addEventListener('change', () => {
    const f = $('replay-file').files && $('replay-file').files[0];
    if (!f) return;
    f.text().then((t) => {
      $('replay-text').value = t;
      loadReplayText(t);
    }, () => showError('could not read the file'));
  });
  $('replay-load').addEventListener('click', () => loadReplayText($('replay-text').value));
  $('replay-first').addEventListener('click', () => replayGo(0));
  $('replay-prev').addEventListener('click', () => replayGo((app.replay?.index ?? 0) - 1));
  $('replay-next').addEventListener('click', () => replayGo((app.replay?.index ?? 0) + 1));
  $('replay-last').addEventListener('click', () => replayGo(Infinity));
  $('replay-play').addEventListener('click', toggleAutoplay);
  $('replay-view').addEventListener('change', () => {
    if (!app.replay) return;
    app.replay.view = $('replay-view').value;
    renderAll();
  });
  $('replay-exit').addEventListener('click', exitReplay);

  document.addEventListener('keydown', (e) => {
    if (!app.replay) return;
    const tag = (e.target && e.target.tagName) || '';
    if (tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT') return;
    if (e.key === 'ArrowLeft') replayGo(app.replay.index - 1);
    else if (e.key === 'ArrowRight') replayGo(app.replay.index + 1);
    else if (e.key === 'Home') replayGo(0);
    else if (e.key === 'End') replayGo(Infinity);
    else return;
    e.preventDefault();
  });
}

function start() {
  document.documentElement.lang = app.lang === 'zh' ? 'zh' : 'en';
  bind();
  renderAll();
  connect();
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
