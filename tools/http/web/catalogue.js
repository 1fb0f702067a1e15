// The server's catalogue (GET /api/v1/games): the games it plays with their sizes and rules, the
// computer's levels, and the endgame tables it has with how far they reach. Read at start and
// again now and then, since the tables grow while a build lands layers beside the server. It is
// not part of the state (store.js): a new catalogue is used from the next drawing on.
import {api} from './api.js';
import {inBrowser, onBrowserTables} from './engine.js';
import {redraw} from './store.js';

const REFRESH_MS = 20000;

let known = null;  // GET /api/v1/games

export function catalogue() {
  return known;
}

export async function loadCatalogue() {
  known = await api.games();
}

// Reads the catalogue again every 20 seconds while the page is shown: layers a build lands
// beside the server are used (the panel and the hints ask the tables only where it says they
// reach).
export function keepCatalogueFresh() {
  // The browser's own tables grow as its worker lands layers: read again, and drawn, once for
  // the layers landed while the last reading was under way (the first ten land within a few
  // milliseconds: one reading and one redraw for them, not ten).
  if (inBrowser) {
    let reading = false;
    let again = false;
    onBrowserTables(async () => {
      again = true;
      if (reading) return;
      reading = true;
      while (again) {
        again = false;
        try {
          known = await api.games();
          redraw();
        } catch {
          // The next layer will do.
        }
      }
      reading = false;
    });
    return;
  }
  setInterval(async () => {
    if (document.hidden) return;
    try {
      known = await api.games();
    } catch {
      // The next look will do; the page goes on with what it has.
    }
  }, REFRESH_MS);
}

// The catalogue's entry for a game (kalah, oware, congkak): sizes, variants, tables.
export function kindInfo(kind) {
  return known.games.find((g) => g.kind === kind);
}
