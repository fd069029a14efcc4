// What the page knows, shared by its modules: the server's hello and latest `state`, the
// game shown, the board module in use, the rank-name language, the events, this seat's
// odds and the replay in progress. Each module keeps its own timers to itself.

export const GAME_NAMES = { chess: 'Chess', shogi: 'Shogi', foursquare: 'FourSquare', junqi: '四国军棋 Junqi' };

// The language of the rank names is the reader's choice, kept across visits.
const LANG_KEY = 'qiyi-play-lang';

export const app = {
  connected: false,
  hello: null,
  state: null,
  game: null,
  board: null,
  boardGame: null,
  lang: loadLang(),
  events: [],
  odds: null,
  replay: null, // {game, frames, seats, ranks, index, timer, view}
};

function loadLang() {
  try {
    const l = localStorage.getItem(LANG_KEY);
    return l === 'en' ? 'en' : 'zh';
  } catch (_) {
    return 'zh';
  }
}

export function saveLang() {
  try {
    localStorage.setItem(LANG_KEY, app.lang);
  } catch (_) {}
}
