// Records: Save game downloads the game as a record (the format of `mancala play`'s save); Load
// game reads such a record or an Aualé .ogn file and goes on from its last position between two
// people on this device.
import {api} from './api.js';
import {recordName, setupOfGame} from './game.js';
import {t} from './i18n.js';
import {showGame} from './play.js';
import {fillSetup} from './setup.js';
import {showError} from './status.js';
import {state, update} from './store.js';
import {today} from './words.js';

const LARGEST_RECORD = 60000;  // bytes

export async function save() {
  try {
    const {game, start, moves} = state();
    const date = today();
    const {record} = await api.writeRecord(game, start, moves, {
      South: recordName('South'), North: recordName('North'), Date: date.dots,
    });
    const file = `mancala-${game.replaceAll(':', '-')}-${date.dashes}.txt`;
    const url = URL.createObjectURL(new Blob([record], {type: 'text/plain'}));
    const link = document.createElement('a');
    link.href = url;
    link.download = file;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    update({message: {text: t('record.saved', {file}), notice: true}});
  } catch (error) {
    showError(error);
  }
}

export async function load(file) {
  if (file.size > LARGEST_RECORD) return void update({message: {text: t('record.tooLarge')}});
  let record;
  try {
    record = await api.readRecord(await file.text());
  } catch (error) {
    return void update({message: {text: t('record.notRecord'), detail: error.message}});
  }
  const setup = {...setupOfGame(record.game), opponent: 'human', first: 'me'};
  update({setup, opponent: 'human', computerSide: null});
  fillSetup();
  const moves = record.moves.split('');
  await showGame(record.game, record.start, moves,
                 {text: t('record.loaded', {game: t(`game.${setup.kind}`), count: moves.length}),
                  notice: true});
}
