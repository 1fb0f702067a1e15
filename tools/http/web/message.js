// The message line under the action bar: an error (the server's own English words apart), a
// notice, or New game's question while a game is going, with its yes and no.
import {t} from './i18n.js';
import {answerNewGame} from './play.js';
import {state} from './store.js';

export function renderMessage() {
  const {view, message: said, confirmNew} = state();
  if (!view) return;
  const message = document.getElementById('message');
  message.textContent = said ? said.text : '';
  message.classList.toggle('notice', !!(said && said.notice));
  if (said && said.detail) {
    const detail = document.createElement('small');
    detail.className = 'detail';
    detail.lang = 'en';
    detail.dir = 'ltr';
    detail.textContent = said.detail;
    message.appendChild(detail);
  }
  if (confirmNew) {
    const ask = document.createElement('span');
    ask.className = 'confirm';
    ask.textContent = t('confirm.newGame');
    const yes = document.createElement('button');
    yes.type = 'button';
    yes.id = 'confirm-yes';
    yes.textContent = t('confirm.yes');
    yes.addEventListener('click', () => answerNewGame(true));
    const no = document.createElement('button');
    no.type = 'button';
    no.id = 'confirm-no';
    no.textContent = t('confirm.no');
    no.addEventListener('click', () => answerNewGame(false));
    message.replaceChildren(ask, yes, no);
  }
}
