// The daily puzzle's panel: a button a game to ask today's puzzle, the question, the verdict with
// the line of perfect play, and the streak. The puzzle itself is puzzle.js.
import {gameGoing, setupOfGame} from './game.js';
import {t} from './i18n.js';
import {askFirst, showGame} from './play.js';
import {findPuzzle, puzzleGames, puzzleText} from './puzzle.js';
import {fillSetup} from './setup.js';
import {puzzleRecord} from './storage.js';
import {state, update} from './store.js';
import {errorMessage, today} from './words.js';

const $ = (id) => document.getElementById(id);

export function renderPuzzle() {
  const {busy, puzzle: p} = state();
  const section = $('puzzle');
  const games = puzzleGames();
  section.hidden = !games.length;
  if (!games.length) return;
  const record = puzzleRecord();
  $('puzzle-streak').textContent = t('puzzle.streak', {count: record.streak});
  $('puzzle-games').replaceChildren(...games.map((g) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.game = g.game;
    button.textContent = t('puzzle.play', {game: t(`game.${g.kind}`)});
    button.disabled = busy;
    button.addEventListener('click', () => startPuzzle(g));
    return button;
  }));
  const text = $('puzzle-text');
  text.textContent = puzzleText(p);
  section.dataset.position = p && p.position ? p.position : '';
  section.dataset.answer = p && p.best && p.status !== 'asked' ? p.best.move : '';
  section.dataset.status = p ? p.status : '';
}

// confirmed: the player said yes to throwing away the game going. A link (link.js) gives the
// puzzle's day, today's or an earlier one's, and the message said once it is on the board; the
// puzzle of an earlier day is judged, but not counted in the streak (`practice`).
export async function startPuzzle(puzzle, confirmed = false, {date = today().dashes,
                                                               message = null} = {}) {
  if (state().busy) return;
  if (!confirmed && gameGoing()) return void askFirst(() => startPuzzle(puzzle, true));
  const practice = date !== today().dashes;
  update({puzzle: {status: 'looking', date, game: puzzle.game}});
  let found;
  try {
    found = await findPuzzle(puzzle, date);
  } catch (error) {
    return void update({puzzle: null, message: errorMessage(error)});
  }
  if (!found) return void update({puzzle: {status: 'none'}});
  // Played on this device, as a loaded record is: the form says so.
  update({setup: {...setupOfGame(puzzle.game), opponent: 'human', first: 'me'},
          opponent: 'human', computerSide: null,
          puzzle: {status: 'asked', date, game: puzzle.game, kind: puzzle.kind,
                   position: found.position, best: moveValue(found.best),
                   answer: {moves: found.answer.moves.map(moveValue)},
                   ...(practice ? {practice: true} : {})}});
  fillSetup();
  await showGame(puzzle.game, found.position, [], message);
  window.scrollTo(0, 0);
}

// What the puzzle keeps of a move's value: the judging needs its category alone.
function moveValue(m) {
  return {move: m.move, category: m.category};
}
