// The panels beside the board, drawn from the page's state: turn, status and result, the
// buttons, seats, moves, events, options and the replay controls. `renderAll` redraws
// them and the board after anything changed.

import { GAME_NAMES, app } from './state.js';
import { $ } from './page.js';
import { send } from './connection.js';
import { currentView, renderBoard } from './board.js';

export function seatList(st) {
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

export function renderAll() {
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

export function sendCurrentOptions() {
  // after a reconnect the server keeps its options; only the odds switch is page-side
  if ($('odds').checked) send({ type: 'options', odds: true });
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
