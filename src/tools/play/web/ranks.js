// Junqi rank names, for junqi.js.
// Rank letters a..l run from the marshal down to the flag (the project's notation).

export const LETTERS = 'abcdefghijkl';

const ZH = ['司令', '军长', '师长', '旅长', '团长', '营长', '连长', '排长', '工兵', '地雷', '炸弹', '军旗'];
const ZH_ONE = ['司', '军', '师', '旅', '团', '营', '连', '排', '工', '雷', '炸', '旗'];
const EN = ['marshal', 'general', 'major general', 'brigadier', 'colonel', 'major',
  'captain', 'lieutenant', 'engineer', 'mine', 'bomb', 'flag'];
const EN_SHORT = ['Mar', 'Gen', 'MGen', 'Brig', 'Col', 'Maj', 'Capt', 'Lt', 'Eng', 'Mine', 'Bomb', 'Flag'];

function index(letter) {
  if (typeof letter !== 'string' || letter.length !== 1) return -1;
  return LETTERS.indexOf(letter.toLowerCase());
}

/** True for a rank letter a..l. */
export function isRank(letter) {
  return index(letter) >= 0;
}

/** The full name of a rank letter ('c' -> 师长 / major general); '' when unknown. */
export function rankName(letter, lang) {
  const i = index(letter);
  if (i < 0) return '';
  return lang === 'en' ? EN[i] : ZH[i];
}

/** The short label drawn on a piece (司令 / Mar). */
export function rankLabel(letter, lang) {
  const i = index(letter);
  if (i < 0) return '';
  return lang === 'en' ? EN_SHORT[i] : ZH[i];
}

/** The shortest tag, for small captions such as odds (师 / MGen). */
export function rankTag(letter, lang) {
  const i = index(letter);
  if (i < 0) return '';
  return lang === 'en' ? EN_SHORT[i] : ZH_ONE[i];
}

/** Every rank as {letter, zh, en}, strongest first. */
export function allRanks() {
  return LETTERS.split('').map((l, i) => ({ letter: l, zh: ZH[i], en: EN[i] }));
}
