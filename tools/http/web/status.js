// What the page says: the status line over the board (whose move, the result, what is going on),
// an error put on the message line, and what is said once to screen readers.
import {againstComputer, humanSide, playerName} from './game.js';
import {t} from './i18n.js';
import {state, update} from './store.js';
import {errorMessage} from './words.js';

const $ = (id) => document.getElementById(id);

// The result of a finished game (`view`, its last position), as the status and the summary say it.
export function resultText(view) {
  const r = view.result;
  const you = againstComputer() && r.winner === humanSide();
  const text = r.winner === 'draw' ? t('status.draw', {south: r.south, north: r.north})
               : you ? t('status.youWin', {south: r.south, north: r.north})
                     : t('status.wins', {player: playerName(r.winner), south: r.south,
                                         north: r.north});
  return r.repetition ? `${text} ${t('status.repetition')}` : text;
}

// An earlier position shown from the move list speaks for itself, not for the game's end: the
// position after move (ply) N of the game's moves, numbered as the move list and the summary do.
export function statusText() {
  const {view, thinkingNow, replay, moves, sowing, lastMove, editor} = state();
  if (!view) return t('app.loading');
  if (editor) return t('editor.status');
  if (replay) return t('moves.viewing', {ply: replay.ply, count: moves.length});
  if (view.game_over) return resultText(view);
  const player = playerName(view.side_to_move);
  if (thinkingNow) return t('status.thinking', {player});
  // Not "your move" while your own sowing is still drawn.
  if (sowing) return t('status.sowing', {move: sowing});
  const again = lastMove && lastMove.extra_turn;
  if (againstComputer() && view.side_to_move === humanSide()) {
    return t(again ? 'status.youAgain' : 'status.yourMove');
  }
  return t(again ? 'status.again' : 'status.toMove', {player});
}

export function renderStatus() {
  $('status').textContent = statusText();
}

export function showError(error) {
  update({message: errorMessage(error)});
}

// Says `text` once to screen readers (a polite live region, apart from the board).
export function announce(text) {
  const region = $('announce');
  region.textContent = '';
  // A change of text is what is announced: cleared first, so that the same words said twice
  // in a row are said again.
  requestAnimationFrame(() => { region.textContent = text; });
}
