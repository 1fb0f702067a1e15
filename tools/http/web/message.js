// The message line under the action bar: an error (the server's own English words apart), a
// notice, or the question asked before a game going is thrown away (New game's, a link's, the
// position editor's), with its yes and no.
import {t} from './i18n.js';
import {answerNewGame} from './play.js';
import {state} from './store.js';
import {appendServerWords} from './words.js';

export function renderMessage() {
  const {view, message: said, confirmNew} = state();
  if (!view) return;
  const message = document.getElementById('message');
  message.textContent = said ? said.text : '';
  message.classList.toggle('notice', !!(said && said.notice));
  if (said && said.detail) appendServerWords(message, said.detail);
  if (confirmNew) {
    const ask = document.createElement('span');
    ask.className = 'confirm';
    // New game's question, or a link's, or the position editor's: each says what yes does.
    const question = ['link', 'editor'].includes(confirmNew) ? confirmNew : 'newGame';
    ask.textContent = t(`confirm.${question}`);
    const yes = document.createElement('button');
    yes.type = 'button';
    yes.id = 'confirm-yes';
    yes.textContent = t(question === 'newGame' ? 'confirm.yes' : `confirm.${question}Yes`);
    yes.addEventListener('click', () => answerNewGame(true));
    const no = document.createElement('button');
    no.type = 'button';
    no.id = 'confirm-no';
    no.textContent = t('confirm.no');
    no.addEventListener('click', () => answerNewGame(false));
    message.replaceChildren(ask, yes, no);
  }
}
