// The puzzle trainer's panel: the player's rating in the game chosen (with its ± deviation), the
// game and the theme, "Next puzzle", "Show solution", and what the puzzle on the board says. The
// trainer itself is puzzle-trainer.js; its libraries puzzle-library.js.
import {gameGoing, setupOfGame, trainerAsked} from './game.js';
import {t} from './i18n.js';
import {askFirst, playSolution, showGame} from './play.js';
import {libraryOf, trainerGames} from './puzzle-library.js';
import {giveUp, nextTrainerPuzzle, settleLeftPuzzle, trainerPuzzleById, trainerRating,
        trainerText} from './puzzle-trainer.js';
import {fillSetup} from './setup.js';
import {keptGame} from './storage.js';
import {state, update} from './store.js';

const $ = (id) => document.getElementById(id);

// Fills a select with `options` ([value, label]) when they changed (a new language), so that a
// drawing does not close a list the player has open.
function fillOptions(select, options, value) {
  const key = JSON.stringify(options);
  if (select.dataset.options !== key) {
    select.replaceChildren(...options.map(([v, label]) => new Option(label, v)));
    select.dataset.options = key;
  }
  select.value = value;
}

// The trainer's next puzzle for the game and theme chosen, near the player's rating, on the board
// as a game between two people. Asks first before a game going is thrown away (not the trainer's
// own puzzle).
export async function startTrainer(confirmed = false) {
  const {busy, trainer, start, trainerChoice} = state();
  if (busy) return;
  const ownPuzzle = trainer && trainer.position === start;
  if (!confirmed && !ownPuzzle && gameGoing()) return void askFirst(() => startTrainer(true));
  const entry = trainerGames().find((g) => g.game === trainerChoice.game) || trainerGames()[0];
  update({trainerLoad: {status: 'loading'}});
  let puzzles;
  try {
    puzzles = await libraryOf(entry);
  } catch (error) {
    return void update({trainerLoad: {status: 'error', error: error.message}});
  }
  const next = nextTrainerPuzzle(entry, puzzles, state().trainerChoice.theme);
  if (!next) return void update({trainerLoad: {status: 'none'}});
  await putOnBoard(entry, next);
}

// The trainer's puzzle `next` of `entry`'s game on the board, as a game between two people from
// its position; the panel set to its game.
async function putOnBoard(entry, next, message) {
  const {trainerChoice} = state();
  update({trainerLoad: null, setup: {...setupOfGame(entry.game), opponent: 'human', first: 'me'},
          opponent: 'human', computerSide: null, puzzle: null, trainer: next,
          trainerChoice: trainerChoice.game === entry.game ? trainerChoice
                                                           : {game: entry.game, theme: ''}});
  fillSetup();
  await showGame(entry.game, next.position, [], message);
  window.scrollTo(0, 0);
}

// The puzzle `id` of `entry`'s library, from a link (link.js has found it in the library, and asks
// first when a game is going).
export async function openTrainerPuzzle(entry, id) {
  const found = trainerPuzzleById(entry, await libraryOf(entry), id);
  if (!found) return;
  const message = {text: t(found.practice ? 'link.openedTrainerPractice' : 'link.openedTrainer',
                           {id, game: t(`game.${entry.kind}`)}),
                   notice: true};
  await putOnBoard(entry, found.trainer, message);
}

// "Show solution": the puzzle given up, its line played out on the board.
async function showSolution() {
  if (state().busy || !trainerAsked()) return;
  giveUp();
  await playSolution();
}

// Wires the panel's controls once, and counts a puzzle the page left unanswered last time (not the
// one the kept game brings back).
export function setUpTrainer() {
  settleLeftPuzzle(keptGame()?.trainer);
  $('trainer-game').addEventListener('change', (e) => {
    // A theme the other game's rules cannot give goes back to every theme.
    const entry = trainerGames().find((g) => g.game === e.target.value);
    const theme = entry.themes.includes(state().trainerChoice.theme) ? state().trainerChoice.theme : '';
    update({trainerChoice: {game: e.target.value, theme}, trainerLoad: null});
  });
  $('trainer-theme').addEventListener('change', (e) => {
    update({trainerChoice: {...state().trainerChoice, theme: e.target.value}, trainerLoad: null});
  });
  $('trainer-next').addEventListener('click', () => startTrainer());
  $('trainer-solution').addEventListener('click', () => showSolution());
}

export function renderTrainer() {
  const {busy, trainer, trainerChoice, trainerLoad, start, moves} = state();
  fillOptions($('trainer-game'), trainerGames().map((g) => [g.game, t(`game.${g.kind}`)]),
              trainerChoice.game);
  const entry = trainerGames().find((g) => g.game === trainerChoice.game) || trainerGames()[0];
  fillOptions($('trainer-theme'),
              [['', t('trainer.allThemes')],
               ...entry.themes.map((theme) => [theme, t(`trainer.themes.${theme}`)])],
              entry.themes.includes(trainerChoice.theme) ? trainerChoice.theme : '');
  const rating = trainerRating(trainerChoice.game);
  $('trainer-rating').textContent = t('trainer.rating', {rating: Math.round(rating.rating),
                                                         deviation: Math.round(rating.deviation)});
  $('trainer-rating').dataset.rating = String(Math.round(rating.rating));
  const asked = trainerAsked();
  $('trainer-next').disabled = busy;
  $('trainer-solution').disabled = busy || !asked;
  const onBoard = trainer && trainer.position === start ? trainer : null;
  let text = '';
  if (trainerLoad) {
    text = trainerLoad.status === 'loading' ? t('trainer.loading')
         : trainerLoad.status === 'none' ? t('trainer.none')
         : t('trainer.error', {error: trainerLoad.error});
  } else if (onBoard) {
    text = `${t('trainer.puzzleRating', {rating: onBoard.rating})} ${trainerText(onBoard)}`;
  } else {
    text = t('trainer.about');
  }
  $('trainer-text').textContent = text;
  const section = $('trainer');
  section.dataset.status = onBoard ? onBoard.status : '';
  section.dataset.id = onBoard ? onBoard.id : '';
  section.dataset.position = onBoard ? onBoard.position : '';
  section.dataset.missed = onBoard && onBoard.missed ? 'true' : 'false';
  // The moves played of the line, for the browser tests.
  section.dataset.step = onBoard ? String(moves.length) : '';
}
