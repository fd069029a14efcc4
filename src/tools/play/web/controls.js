// What the page's own controls do: the language, game buttons, options and replay
// controls, and the arrow keys while a replay is shown.

import { app, saveLang } from './state.js';
import { $, showError } from './page.js';
import { send } from './connection.js';
import { renderBoard } from './board.js';
import { renderAll } from './panels.js';
import { exitReplay, loadReplayText, replayGo, toggleAutoplay } from './replay.js';

export function bindControls() {
  $('lang').addEventListener('click', () => {
    app.lang = app.lang === 'zh' ? 'en' : 'zh';
    saveLang();
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
