// The web board's start: the language, the views in the order they are drawn (store.js draws each
// again when the state it read changes), the page's controls wired to the modules that own them,
// the server's catalogue, then the game kept on this device or a new one. What each module owns:
// docs/web-board.md.
import {renderAnalysis} from './analysis-panel.js';
import {toggleAnalysis} from './analysis.js';
import {buildBoard, createBoard, dropFirstBoard, narrow, renderBoard,
        renderFrame} from './board-view.js';
import {keepCatalogueFresh, loadCatalogue} from './catalogue.js';
import {renderControls} from './controls.js';
import {keepOffline} from './engine.js';
import {closeEditor, emptyBoard, openEditor, renderEditor, setSide,
        useEditedPosition} from './editor.js';
import {isHumanTurn} from './game.js';
import {hint, renderHint} from './hint.js';
import {renderMoveList, showPly, stepReplay} from './history.js';
import {preferredLanguage, setLanguage, translatePage} from './i18n.js';
import {learnTakesMove, tryMove} from './learn.js';
import {copyLink, openLinkOfPage, renderLink} from './link.js';
import {renderMessage} from './message.js';
import {askFirstBoard, newGame, playHuman, resumeGame, undo} from './play.js';
import {renderPuzzle} from './puzzle-panel.js';
import {load, save} from './record.js';
import {followGame} from './review.js';
import {renderReview, wireReview} from './review-panel.js';
import {renderRules} from './rules.js';
import {fillLanguages, fillSetup, onSetupChange, readSetup, storedSetup,
        switchLanguage} from './setup.js';
import {isAnimating, skipAnimation} from './sowing.js';
import {renderStatus, showError} from './status.js';
import {addView, redraw, state, update} from './store.js';
import {renderSummary} from './summary-panel.js';
import {renderThinking} from './thinking.js';
import {renderTrainer, setUpTrainer} from './trainer-panel.js';

const $ = (id) => document.getElementById(id);

function onKey(event) {
  if (isAnimating()) {
    event.preventDefault();
    return skipAnimation();
  }
  // Escape closes the position editor, from any of its fields.
  if (event.key === 'Escape' && state().editor) return void closeEditor();
  const target = event.target;
  // Keys typed into a field are the field's; a checkbox (the thinking switch) types nothing.
  const typing = target instanceof HTMLInputElement && target.type !== 'checkbox';
  if (typing || target instanceof HTMLSelectElement || target instanceof HTMLTextAreaElement) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const view = state().view;
  // Right to left (Hebrew), the earlier moves lie to the right, as the « ‹ › » buttons do.
  const back = document.documentElement.dir === 'rtl' ? 'ArrowRight' : 'ArrowLeft';
  const replayKeys = {[back]: () => stepReplay(-1),
                      [back === 'ArrowLeft' ? 'ArrowRight' : 'ArrowLeft']: () => stepReplay(1),
                      Home: () => showPly(0), End: () => showPly(state().moves.length)};
  if (replayKeys[event.key] && view) {
    event.preventDefault();
    return void replayKeys[event.key]();
  }
  if (event.key.length !== 1 || !/[a-z]/i.test(event.key)) return;
  // Learning from a mistake: a letter tries that house of the position before it.
  if (learnTakesMove()) {
    const shown = state().replay.view;
    const tried = shown.side_to_move === 'South' ? event.key.toUpperCase()
                                                 : event.key.toLowerCase();
    if (!shown.moves.some((m) => m.move === tried)) return;
    event.preventDefault();
    return void tryMove(tried);
  }
  if (!isHumanTurn()) return;
  const letter = view.side_to_move === 'South' ? event.key.toUpperCase()
                                               : event.key.toLowerCase();
  if (!view.moves.some((m) => m.move === letter)) return;
  event.preventDefault();
  playHuman(letter);
}

// Until the first board, the panels beside it are out of the page's layout (style.css, .starting).
function showPanels() {
  document.documentElement.classList.remove('starting');
}

async function main() {
  // The first board's position is asked before anything is awaited (play.js, askFirstBoard).
  askFirstBoard();
  keepOffline();
  await setLanguage(preferredLanguage(), false);
  translatePage();
  fillLanguages();
  createBoard((letter) => (learnTakesMove() ? tryMove(letter) : playHuman(letter)));
  for (const view of [renderStatus, renderBoard, renderFrame, renderMessage, renderEditor,
                      renderHint, renderControls, renderMoveList, renderLink]) {
    addView(view);
  }
  const drawThinking = addView(renderThinking);
  for (const view of [renderAnalysis, renderSummary, renderReview, renderRules, renderPuzzle,
                      followGame]) {
    addView(view);
  }
  setUpTrainer();
  addView(renderTrainer);
  $('language').addEventListener('change', (e) => switchLanguage(e.target.value));
  document.addEventListener('keydown', onKey);
  $('board-frame').addEventListener('pointerdown', skipAnimation);
  $('setup').addEventListener('change', onSetupChange);
  $('setup').addEventListener('submit', (e) => {
    e.preventDefault();
    newGame();
  });
  $('new-game').addEventListener('click', () => newGame());
  $('undo').addEventListener('click', () => undo());
  $('hint').addEventListener('click', () => hint());
  $('save').addEventListener('click', () => save());
  $('load').addEventListener('click', () => $('load-file').click());
  $('load-file').addEventListener('change', (e) => {
    const file = e.target.files[0];
    e.target.value = '';
    if (file) load(file);
  });
  $('show-thinking').addEventListener('change', drawThinking);
  $('replay-first').addEventListener('click', () => showPly(0));
  $('replay-back').addEventListener('click', () => stepReplay(-1));
  $('replay-forward').addEventListener('click', () => stepReplay(1));
  $('replay-last').addEventListener('click', () => showPly(state().moves.length));
  narrow.addEventListener('change', () => {
    if (!state().view) return;
    buildBoard(state().view.houses);
    redraw();
  });
  $('analysis-toggle').addEventListener('click', toggleAnalysis);
  wireReview();
  $('edit-position').addEventListener('click', () => (state().editor ? closeEditor()
                                                                     : openEditor()));
  $('editor-side').addEventListener('change', (e) => setSide(e.target.value));
  $('editor-play').addEventListener('click', () => useEditedPosition(false));
  $('editor-analyse').addEventListener('click', () => useEditedPosition(true));
  $('editor-empty').addEventListener('click', emptyBoard);
  $('editor-close').addEventListener('click', closeEditor);
  $('copy-link').addEventListener('click', copyLink);
  // A link pasted into the address of the open page changes only its '#' part: no reload.
  window.addEventListener('hashchange', () => openLinkOfPage());
  try {
    await loadCatalogue();
  } catch (error) {
    showError(error);
    $('status').textContent = state().message.text;
    dropFirstBoard();
    showPanels();
    return;
  }
  update({setup: storedSetup()});
  fillSetup();
  update({setup: readSetup()});
  try {
    if (!(await resumeGame())) await newGame();
  } finally {
    // The panels beside the board come in the frame after the board's first, before a link is
    // opened (it may show one of them: the trainer).
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve)));
    dropFirstBoard();
    showPanels();
  }
  // A link opened (the page's address holds one): shown once the kept game is back, so that a
  // game going is not thrown away without asking.
  await openLinkOfPage();
  keepCatalogueFresh();
}

main();
