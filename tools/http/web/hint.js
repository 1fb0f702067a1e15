// The hint: the shared analysis's best move (analyses.js), highlighted on the board and explained
// beside the status: what it does (an extra turn, a capture), its value (exact with perfect play,
// or a search's estimate) and where that value comes from. Without a hint the place beside the
// status says the daily puzzle's question, then its verdict, while the puzzle is on the board.
import {analysisOf} from './analyses.js';
import {againstComputer, isHumanTurn, playerName} from './game.js';
import {t} from './i18n.js';
import {learnText} from './learn.js';
import {whileBusy} from './play.js';
import {puzzleText} from './puzzle.js';
import {trainerText} from './puzzle-trainer.js';
import {state, update} from './store.js';
import {effectText, outcomeText, signed, tidy, valueWords} from './words.js';

export async function hint() {
  const {busy, view} = state();
  if (busy || !isHumanTurn()) return;
  const player = playerName(view.side_to_move);
  const you = againstComputer();  // the hint is for your move: you are playing the computer
  const legal = view.moves;
  update({hint: {letter: null, text: t('hint.looking')}});
  await whileBusy(async (stale) => {
    try {
      const {game, start, moves} = state();
      const data = await analysisOf(game, start, moves);
      if (stale()) return;
      const best = data.moves[0];
      // A move that ends the game is told by its real end, an Oware count named as such.
      const said = valueWords(best, data.margin);
      const params = {move: best.move, player, effect: effectText(legal.find((m) =>
                        m.move === best.move)), source: said.source};
      update({hint: {letter: best.move, score: best.score, said: said.score,
                     provenance: best.provenance,
                     text: tidy(best.exact
                                    ? t(you ? 'hint.exactYou' : 'hint.exact',
                                        {...params, outcome: outcomeText(said.score, you)})
                                    : t(you ? 'hint.estimateYou' : 'hint.estimate',
                                        {...params, score: signed(said.score)}))}});
    } catch (error) {
      update({hint: null});
      throw error;
    }
  });
}

// The daily puzzle on the board, asked or just answered, or the trainer's puzzle: what it says,
// beside the status (a phone shows the panels far below the board).
function puzzleSays() {
  const {puzzle, trainer, start, moves} = state();
  if (trainer && trainer.position === start) return trainerText(trainer);
  const onBoard = puzzle && ['asked', 'answered'].includes(puzzle.status) &&
                  puzzle.position === start && moves.length <= 1;
  return onBoard ? puzzleText(puzzle) : '';
}

export function renderHint() {
  const {view, hint: shown} = state();
  if (!view) return;
  const hintText = document.getElementById('hint-text');
  hintText.textContent = shown ? shown.text : learnText() || puzzleSays();
  // The hint's move and value in attributes, for the browser tests.
  hintText.dataset.move = shown && shown.letter ? shown.letter : '';
  hintText.dataset.score = shown && shown.letter ? shown.score : '';
  // The value the words give: the real end of a move that ends the game.
  hintText.dataset.said = shown && shown.letter ? shown.said : '';
  hintText.dataset.provenance = shown && shown.letter ? shown.provenance : '';
}
