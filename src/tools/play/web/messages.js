// The server's messages (docs/play.md): each updates the page's state and redraws what
// it changed.

import { GAME_NAMES, app } from './state.js';
import { $, showError } from './page.js';
import { renderBoard } from './board.js';
import { renderAll } from './panels.js';
import { startClock } from './clock.js';
import { onReplay } from './replay.js';

export function handle(msg) {
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
