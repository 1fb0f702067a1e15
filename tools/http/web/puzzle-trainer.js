// The puzzle trainer: puzzles from the libraries (puzzle-library.js), each with exactly one good
// move at every step of the player's, played on the board as a game between two people from the
// puzzle's position. A wrong move is not played: the player tries again. A right one is played,
// and the computer's answers along the puzzle's line follow on the board until the player's next
// step or the line's end (solved). "Show solution" plays the rest of the line out. Each puzzle
// is a game of a Glicko-2 rating period against the puzzle's rating (glicko2.js): won when solved
// with no miss, lost at the first miss, on "Show solution" or when it is left unanswered (the
// next puzzle asked, another game started, the page left with another game on the board: a puzzle
// met is counted once, whatever happens). A reload brings the puzzle back with the game kept,
// asked as it was and counted as it was. The rating is kept on the device a game. This module
// keeps the trainer's state and judges; play.js plays the line's answers after a right move, and
// the panel (trainer-panel.js) starts puzzles and plays a solution out.
import {sideOfLetter, trainerAsked} from './game.js';
import {NEW_PLAYER, glicko2Update} from './glicko2.js';
import {t} from './i18n.js';
import {nextPuzzle} from './puzzle-library.js';
import {keepTrainerRecord, trainerRecord} from './storage.js';
import {state, update} from './store.js';
import {signed, tidy} from './words.js';

// A puzzle's rating deviation: its rating comes from a formula (tools/service/puzzles.h), not from
// games, so it is held this unsure.
export const PUZZLE_DEVIATION = 100;

export function trainerRating(game) {
  return trainerRecord().ratings[game] || NEW_PLAYER;
}

// Counts `score` (1 solved, 0 missed) against the puzzle in the player's rating; returns the
// change of the rating shown, rounded.
function settle(trainer, score) {
  const record = trainerRecord();
  const before = record.ratings[trainer.game] || NEW_PLAYER;
  const after = glicko2Update(before, [{rating: trainer.rating, deviation: PUZZLE_DEVIATION,
                                        score}]);
  record.ratings[trainer.game] = after;
  record.tried += 1;
  if (score === 1) record.solved += 1;
  record.pending = null;
  keepTrainerRecord(record);
  return Math.round(after.rating) - Math.round(before.rating);
}

// A puzzle left unanswered counts as missed, once: one left for another game, and one whose page
// went away with another game kept. `kept`: the trainer's puzzle the kept game brings back (a
// reload), still pending and asked as it was, so not counted (its analysis stays hidden: a reload
// is no free look at the answer).
export function settleLeftPuzzle(kept = null) {
  const record = trainerRecord();
  if (!record.pending) return;
  const back = kept && kept.status === 'asked' && !kept.counted &&
               kept.game === record.pending.game && kept.rating === record.pending.rating;
  if (!back) settle(record.pending, 0);
}

// Before another puzzle is asked: the one asked now (unless it counts for nothing) and one left
// pending for another game (New game, the daily puzzle) are counted as missed.
function settleBeforeAnother() {
  const left = state().trainer;
  if (trainerAsked() && !left.counted) settle(left, 0);
  settleLeftPuzzle();
}

// Notes puzzle `id` of `game` in `record` as met, the latest last; whether it was met before.
function noteMet(record, game, id) {
  const played = record.played[game] || [];
  record.played[game] = [...played.filter((x) => x !== id), id];
  return played.includes(id);
}

// The puzzle the trainer asks next of `puzzles` (entry: the game's library, trainerGames()) for
// `theme`, near the player's rating; its state for the store (status 'asked'), or null when the
// theme has none. A puzzle left unanswered (still asked, or left for another game) is counted as
// missed; the new one is noted as met, and as pending until it is counted.
export function nextTrainerPuzzle(entry, puzzles, theme) {
  settleBeforeAnother();
  const record = trainerRecord();
  const rating = (record.ratings[entry.game] || NEW_PLAYER).rating;
  const p = nextPuzzle(puzzles, rating, theme, record.played[entry.game] || []);
  if (!p) return null;
  noteMet(record, entry.game, p.id);
  record.pending = {game: entry.game, rating: p.rating};
  keepTrainerRecord(record);
  return askedState(entry, p, false);
}

// The state of puzzle `p` of `entry`'s library as it is asked; `counted`: it counts for nothing.
function askedState(entry, p, counted) {
  return {status: 'asked', game: entry.game, kind: entry.kind, id: p.id, position: p.position,
          line: p.line, goal: p.goal, themes: p.themes, rating: p.rating, missed: false,
          counted, change: null, wrong: null};
}

// The puzzle `id` of `puzzles` (entry: its game's library), opened from a link: asked as the
// trainer's own are, and counted for the rating the same way unless the player met it before
// (then it is practice: counted already, its result changes nothing). The puzzle the board asks
// already, when it is that one, stays as it is. {trainer, practice}, or null when the library has
// no such puzzle.
export function trainerPuzzleById(entry, puzzles, id) {
  const p = puzzles.find((x) => x.id === id);
  if (!p) return null;
  const left = state().trainer;
  if (trainerAsked() && left.game === entry.game && left.id === id) {
    return {trainer: left, practice: false};
  }
  settleBeforeAnother();
  const record = trainerRecord();
  const met = noteMet(record, entry.game, p.id);
  if (!met) record.pending = {game: entry.game, rating: p.rating};
  keepTrainerRecord(record);
  return {trainer: askedState(entry, p, met), practice: met};
}

// The side the player plays in the trainer's puzzle: the side to move at its start.
function playerSide(trainer) {
  return trainer.position.endsWith('S') ? 'South' : 'North';
}

// Judges the player's move before it is played: 'refuse' a wrong one (counted as a miss, the
// board left as it was: try again) or any move of the other side's (the line answers for it);
// 'play' otherwise, and whenever no trainer's puzzle asks.
export function trainerJudges(letter) {
  const trainer = state().trainer;
  if (!trainerAsked()) return 'play';
  const step = state().moves.length;
  if (sideOfLetter(letter) !== playerSide(trainer)) return 'refuse';
  if (step < trainer.line.length && letter === trainer.line[step]) return 'play';
  const change = trainer.counted ? trainer.change : settle(trainer, 0);
  update({trainer: {...trainer, missed: true, counted: true, change, wrong: letter}});
  return 'refuse';
}

// The computer's answer the line plays next, while the puzzle asks and the line goes on with a
// move of the other side's; else null.
export function lineAnswer() {
  const trainer = state().trainer;
  if (!trainerAsked()) return null;
  const letter = trainer.line[state().moves.length];
  return letter && sideOfLetter(letter) !== playerSide(trainer) ? letter : null;
}

// The line's next move of either side while its solution is played out; else null.
export function solutionMove() {
  const {trainer, start, moves} = state();
  if (!trainer || trainer.status !== 'shown' || trainer.position !== start) return null;
  return trainer.line[moves.length] || null;
}

// Once the line has been played to its end by a puzzle still asking: solved (counted as won
// unless missed before).
export function markSolvedWhenDone() {
  const trainer = state().trainer;
  if (!trainerAsked() || state().moves.length < trainer.line.length) return;
  const change = trainer.counted ? trainer.change : settle(trainer, 1);
  update({trainer: {...trainer, status: 'solved', counted: true, change, wrong: null}});
}

// A right move of the player's: the miss it followed is no longer said.
export function clearMiss() {
  const trainer = state().trainer;
  if (trainerAsked() && trainer.wrong) update({trainer: {...trainer, wrong: null}});
}

// "Show solution": the puzzle counted as missed unless counted already; the line is then played
// out (solutionMove).
export function giveUp() {
  const trainer = state().trainer;
  if (!trainerAsked()) return;
  const change = trainer.counted ? trainer.change : settle(trainer, 0);
  update({trainer: {...trainer, status: 'shown', counted: true, change, wrong: null}});
}

// What the trainer says of its puzzle on the board: the question, a miss, the next step, the
// verdict with the rating's change.
export function trainerText(trainer) {
  if (!trainer) return '';
  const change = trainer.change === null ? ''
                                         : ` ${t('trainer.change', {change: signed(trainer.change)})}`;
  if (trainer.status === 'solved') {
    return tidy(t(trainer.missed ? 'trainer.solvedAfterMiss' : 'trainer.solved') + change);
  }
  if (trainer.status === 'shown') {
    return tidy(t('trainer.shown', {line: trainer.line.join(' ')}) + change);
  }
  if (trainer.wrong) return tidy(t('trainer.wrong', {move: trainer.wrong}) + change);
  if (state().moves.length) return t('trainer.goOn');
  return t(trainer.goal === 'win' ? 'trainer.findWin' : 'trainer.findDraw');
}
