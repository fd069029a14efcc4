// The page's own elements: lookup by id, the error line, and the picker dialog the boards
// ask through `hooks.choose`.

export const $ = (id) => document.getElementById(id);

let errorTimer = null;

export function showError(text) {
  const el = $('error');
  el.textContent = text;
  el.hidden = false;
  clearTimeout(errorTimer);
  errorTimer = setTimeout(() => {
    el.hidden = true;
  }, 5000);
}

export function choose(title, options) {
  const dlg = $('choice');
  $('choice-title').textContent = String(title ?? '');
  const box = $('choice-options');
  const opts = Array.isArray(options) ? options : [];
  box.replaceChildren(
    ...opts.map((o, i) => {
      const b = document.createElement('button');
      b.type = 'submit';
      b.value = String(i);
      b.textContent = String(o.label ?? o.value);
      return b;
    }),
  );
  return new Promise((resolve) => {
    const done = () => {
      dlg.removeEventListener('close', done);
      const v = dlg.returnValue;
      resolve(v !== '' && opts[Number(v)] ? opts[Number(v)].value : null);
    };
    dlg.returnValue = '';
    dlg.addEventListener('close', done);
    try {
      dlg.showModal();
    } catch (_) {
      dlg.removeEventListener('close', done);
      resolve(null);
    }
  });
}
