// The board of the game shown: one board module per game, created when the game changes,
// given a view of the live state or of a replay frame to draw, and hooks for what a
// person does on it.
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
import { app } from './state.js';
import { $, choose } from './page.js';
import { send } from './connection.js';

const MODULES = { chess, shogi, foursquare, junqi };

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

export function ensureBoard(game) {
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

export function currentView() {
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

export function renderBoard() {
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
