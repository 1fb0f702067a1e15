// The JSON API of the server (docs/http-api.md). Every request carries the whole
// game: its GAME string, start position and moves, so the page never applies a rule itself.
// On a board with no server the engine in this browser answers the same requests (engine.js).
import {askBrowserEngine, inBrowser, wantTables} from './engine.js';

export class ApiError extends Error {
  constructor(status, message, field) {
    super(message);
    this.status = status;
    this.field = field;
  }
}

// A request answered by the engine in this browser: the path's name and query, the body.
async function callBrowserEngine(path, options) {
  const url = new URL(path, location.href);
  const name = url.pathname.replace(/^\/api\/v1\//, '');
  const params = Object.fromEntries(url.searchParams);
  // The tables of the game being asked about are built before any other's.
  const game = params.game || (options.body ? JSON.parse(options.body).game : '');
  if (game) wantTables(game);
  let reply;
  try {
    reply = await askBrowserEngine(name, params, options.body || '', options.signal, game);
  } catch (error) {
    throw new ApiError(0, String(error));
  }
  if (reply.status !== 200) {
    throw new ApiError(reply.status, reply.body && reply.body.error, reply.body && reply.body.field);
  }
  return reply.body;
}

async function call(path, options = {}) {
  if (inBrowser) return callBrowserEngine(path, options);
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw new ApiError(0, String(error));
  }
  let body = null;
  try {
    body = await response.json();
  } catch {
    // An answer without JSON: reported by its status below.
  }
  if (!response.ok) {
    throw new ApiError(response.status, body && body.error ? body.error : response.statusText,
                       body && body.field);
  }
  return body;
}

function query(params) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== undefined && value !== null && value !== '') search.set(name, value);
  }
  return search.toString();
}

function post(path, body) {
  return call(path, {
    method: 'POST',
    headers: {'Content-Type': 'application/json'},
    body: JSON.stringify(body),
  });
}

function positionPath(game, start, moves, played) {
  return `/api/v1/position?${query({game, position: start, moves: moves.join(''), played})}`;
}

// The first board's position, asked as the page starts (askFirstPosition), while the languages
// and the catalogue of games come in, rather than after them: one round trip fewer before the
// first board on a phone's network. The first request for the same position takes its answer.
let early = null;  // {path, answer}

export function askFirstPosition(game, start, moves) {
  const path = positionPath(game, start, moves, 'last');
  early = {path, answer: call(path)};
  // Taken by a later request, or by none (the page opened another game): never an unhandled
  // rejection (whoever takes a failure asks again).
  early.answer.catch(() => {});
}

export const api = {
  games: () => call('/api/v1/games'),
  // played: "all", "last" or "none": which of the moves to describe seed by seed.
  position: (game, start, moves, played = 'none') => {
    const path = positionPath(game, start, moves, played);
    if (early && early.path === path) {
      const {answer} = early;
      early = null;
      // Asked before the page was ready: a failure then is asked again now, as it would have been.
      return answer.catch(() => call(path));
    }
    early = null;
    return call(path);
  },
  // signal: an AbortSignal that drops the request (a position the player has left).
  analyse: (game, start, moves, time, signal) =>
    call(`/api/v1/analyse?${query({game, position: start, moves: moves.join(''), time})}`,
         {signal}),
  // Exact values from the endgame tables; ask only for a position they cover (tableCovering in
  // game.js), since the answer is 404 for any other and the browser logs every 404 as an error.
  tables: (game, start, moves) =>
    call(`/api/v1/tables?${query({game, position: start, moves: moves.join('')})}`),
  move: (game, start, moves, level) =>
    post('/api/v1/move', {game, position: start || undefined, moves: moves.join(''), level}),
  writeRecord: (game, start, moves, tags) =>
    post('/api/v1/record', {game, position: start || undefined, moves: moves.join(''), tags}),
  readRecord: (text) => post('/api/v1/record/parse', {record: text}),
};
