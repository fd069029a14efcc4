// Replaying a record: the server turns it into frames (a `replay` message); the page
// steps through them, by hand or on a timer, and goes back to the live game at the end.

import { app } from './state.js';
import { $, showError } from './page.js';
import { send } from './connection.js';
import { ensureBoard } from './board.js';
import { renderAll, seatList } from './panels.js';

export function onReplay(msg) {
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

export function replayGo(i) {
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

export function toggleAutoplay() {
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

export function exitReplay() {
  stopAutoplay();
  app.replay = null;
  const root = $('board');
  // the live game may use another board module
  if (app.boardGame !== (app.state?.game ?? app.game)) ensureBoard(app.state?.game ?? app.game);
  root.dataset.replay = 'false';
  renderAll();
}

export function loadReplayText(text) {
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
