// The WebSocket to the server: connect, reconnect with a growing delay when it drops, and
// send. What a message means is for the caller (`connect`'s handlers), so this module
// knows nothing of the protocol.

import { app } from './state.js';
import { $, showError } from './page.js';

let ws = null;
let backoff = 500;
let reconnectTimer = null;
let handlers = null;

function wsUrl() {
  const u = new URL('ws', location.href);
  u.protocol = u.protocol === 'https:' ? 'wss:' : 'ws:';
  u.hash = '';
  u.search = '';
  return u.href;
}

// handlers.opened() after each (re)connection; handlers.message(msg) for each message,
// parsed.
export function connect(on) {
  handlers = on;
  open();
}

function open() {
  clearTimeout(reconnectTimer);
  let socket;
  try {
    socket = new WebSocket(wsUrl());
  } catch (e) {
    scheduleReconnect();
    return;
  }
  ws = socket;
  socket.onopen = () => {
    if (ws !== socket) return;
    backoff = 500;
    setConnected(true);
    handlers.opened();
  };
  socket.onmessage = (ev) => {
    if (ws !== socket) return;
    let msg;
    try {
      msg = JSON.parse(ev.data);
    } catch (_) {
      return;
    }
    try {
      handlers.message(msg);
    } catch (e) {
      console.error('qiyi play: while handling', msg && msg.type, e);
    }
  };
  socket.onclose = () => {
    if (ws !== socket) return;
    ws = null;
    setConnected(false);
    scheduleReconnect();
  };
  socket.onerror = () => {
    // onclose follows and reconnects
  };
}

function scheduleReconnect() {
  clearTimeout(reconnectTimer);
  const delay = backoff;
  backoff = Math.min(backoff * 2, 10000);
  $('conn-text').textContent = `reconnecting in ${Math.round(delay / 100) / 10}s…`;
  reconnectTimer = setTimeout(open, delay);
}

function setConnected(on) {
  app.connected = on;
  document.body.dataset.connected = on ? 'true' : 'false';
  $('conn-text').textContent = on ? 'connected' : 'disconnected';
}

export function send(obj) {
  if (!ws || ws.readyState !== WebSocket.OPEN) {
    showError('not connected to the server');
    return false;
  }
  ws.send(JSON.stringify(obj));
  return true;
}
