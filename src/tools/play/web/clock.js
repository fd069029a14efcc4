// The clock of the move in progress: the seconds the server gave, counted down on the
// page between states.

import { $ } from './page.js';

let timer = null;

export function startClock(sec) {
  clearInterval(timer);
  const el = $('clock-left');
  if (typeof sec !== 'number' || !isFinite(sec)) {
    el.hidden = true;
    return;
  }
  const started = Date.now();
  const tick = () => {
    const left = Math.max(0, sec - (Date.now() - started) / 1000);
    el.textContent = `clock: ${left.toFixed(left < 10 ? 1 : 0)} s`;
    el.classList.toggle('low', left < 10);
  };
  el.hidden = false;
  tick();
  timer = setInterval(tick, 200);
}
