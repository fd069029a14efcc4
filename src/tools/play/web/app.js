// qiyi play: the page shell. It connects to the server's WebSocket, keeps the latest
// `state`, draws the panels (turn, status, seats, moves, events, options, replay) and
// hands the board to one board module per game. The protocol is in docs/play.md; the
// page holds no rules and no hidden state, it only sends intents.
//
// One job a module: state.js (what the page knows), connection.js (the WebSocket),
// messages.js (what the server says), board.js (the board modules and their interface),
// panels.js (everything beside the board), clock.js, replay.js, controls.js (the
// buttons and keys), page.js (the error line and the picker).

import { app } from './state.js';
import { connect } from './connection.js';
import { handle } from './messages.js';
import { renderAll, sendCurrentOptions } from './panels.js';
import { bindControls } from './controls.js';

function start() {
  document.documentElement.lang = app.lang === 'zh' ? 'zh' : 'en';
  bindControls();
  renderAll();
  connect({ opened: sendCurrentOptions, message: handle });
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start);
else start();
