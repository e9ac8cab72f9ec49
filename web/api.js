// api.js: the server's HTTP API (docs/http-api.md) as functions, and the game's event stream.
//
// Every call returns the parsed JSON or throws an ApiError carrying the HTTP status and the
// server's {"error": ...} sentence (plus the 409 reason and foul kind for a refused move).
// Status 0 means the server could not be reached.

/** @typedef {{point: string, kind: string}} ForbiddenPoint */
/**
 * @typedef {object} Result
 * @property {'black' | 'white' | null} winner
 * @property {string} outcome
 * @property {'five' | 'forbidden' | 'resign' | 'full-board' | 'no-legal-point'} reason
 * @property {string | null} foul
 * @property {string | null} point
 * @property {string[]} line
 */
/**
 * @typedef {object} GameState
 * @property {number} id
 * @property {'hvc' | 'hvh'} mode
 * @property {string} rule
 * @property {number} size
 * @property {number | null} level
 * @property {string | null} level_name
 * @property {'black' | 'white' | null} human
 * @property {string[]} moves
 * @property {'black' | 'white'} to_move
 * @property {boolean} your_turn
 * @property {boolean} thinking
 * @property {number} thinking_ms
 * @property {string | null} hint
 * @property {Evaluation | null} [hint_eval]
 * @property {boolean} over
 * @property {Result | null} result
 * @property {ForbiddenPoint[]} forbidden
 * @property {boolean} can_undo
 * @property {boolean} can_redo
 * @property {boolean} owner
 * @property {'free' | 'swap' | 'swap2'} [opening]
 * @property {'place3' | 'choose' | 'place2' | 'choose5' | null} [phase]
 * @property {boolean} [you_choose]
 * @property {('black' | 'white' | 'place2')[]} [choices]
 * @property {boolean} [you_first]
 */
/**
 * @typedef {object} Config
 * @property {string[]} rules
 * @property {string[]} modes
 * @property {{min: number, max: number, default: number}} sizes
 * @property {{level: number, name: string, name_zh: string, rating: number}[]} levels
 * @property {{mode: string, rule: string, size: number, level: number, human: string}} defaults
 * @property {string} lang
 */
/**
 * @typedef {object} GameSummary
 * @property {number} id
 * @property {string} mode
 * @property {string} rule
 * @property {number} size
 * @property {number} level
 * @property {string | null} human
 * @property {number} started
 * @property {number} moves
 * @property {boolean} finished
 * @property {boolean} abandoned
 * @property {string | null} outcome
 * @property {string | null} reason
 * @property {boolean} owner
 * @property {boolean} [public]  an online game, listed to everyone
 * @property {string} [black]
 * @property {string} [white]
 */
/** @typedef {import('./evalbar.js').Evaluation} Evaluation */
/** @typedef {{move: string, eval: string, score: number, pv: string[], evaluation?: Evaluation}} AnalysisLine */
/**
 * @typedef {object} Analysis
 * @property {string} best
 * @property {string} eval
 * @property {number} depth
 * @property {number} nodes
 * @property {number} time_ms
 * @property {string[]} pv
 * @property {AnalysisLine[]} lines
 * @property {Evaluation} [evaluation]
 */
/**
 * @typedef {object} ScoreLine
 * @property {string} mode
 * @property {number} level
 * @property {string} level_name
 * @property {number} games
 * @property {number} wins
 * @property {number} losses
 * @property {number} draws
 * @property {number} [black_wins]
 * @property {number} [white_wins]
 */
/** @typedef {{name: string, games: number, wins: number, losses: number, draws: number}} OnlinePlayer */
/** @typedef {{lines: ScoreLine[], total: number, online_players?: OnlinePlayer[]}} Stats */
/**
 * @typedef {object} RecordInfo
 * @property {string} format
 * @property {string} rule
 * @property {number} size
 * @property {string[]} moves
 * @property {Result | null} result
 */

export class ApiError extends Error {
    /** @param {number} status @param {string} message @param {string} [reason] @param {string} [kind] */
    constructor(status, message, reason, kind) {
        super(message);
        this.status = status;
        this.reason = reason || '';
        this.kind = kind || '';
    }
}

/**
 * @param {string} method @param {string} path @param {unknown} [body]
 * @param {string} [contentType]
 * @returns {Promise<any>}
 */
async function call(method, path, body, contentType) {
    /** @type {RequestInit} */
    const init = { method, headers: {}, credentials: 'same-origin' };
    // every action is JSON, with or without a body: the server refuses any other type (415)
    if (body === undefined && method === 'POST') body = {};
    if (body !== undefined) {
        const type = contentType || 'application/json';
        init.headers = { 'Content-Type': type };
        init.body = type === 'application/json' ? JSON.stringify(body) : String(body);
    }
    let res;
    try {
        res = await fetch(path, init);
    } catch (e) {
        throw new ApiError(0, String(e));
    }
    let data = null;
    try {
        data = await res.json();
    } catch (e) {
        data = null;
    }
    if (!res.ok) {
        const d = data && typeof data === 'object' ? data : {};
        throw new ApiError(res.status, String(d.error || res.statusText), d.reason, d.kind);
    }
    return data;
}

/** @returns {Promise<Config>} */
export const getConfig = () => call('GET', '/api/config');

/** Creates a game from the setup (and optional moves to start from).
 * @param {Record<string, unknown>} setup @returns {Promise<GameState>} */
export const createGame = (setup) => call('POST', '/api/games', setup);

/** @param {number} id @returns {Promise<GameState>} */
export const getGame = (id) => call('GET', `/api/games/${id}`);

/** Plays point; ply is the number of moves on the board the player saw (a stale click is refused).
 * @param {number} id @param {string} point @param {number} ply @returns {Promise<GameState>} */
export const move = (id, point, ply) => call('POST', `/api/games/${id}/move`, { point, ply });

/** undo, redo, resign or hint.
 * @param {number} id @param {'undo' | 'redo' | 'resign' | 'hint'} what @returns {Promise<GameState>} */
export const action = (id, what) => call('POST', `/api/games/${id}/${what}`);

/** Swap openings: the player's choice of colour, or two more stones.
 * @param {number} id @param {'black' | 'white' | 'place2'} choice @returns {Promise<GameState>} */
export const choose = (id, choice) => call('POST', `/api/games/${id}/choose`, { choice });

/** @param {number} [limit] @returns {Promise<{games: GameSummary[]}>} */
export const listGames = (limit) => call('GET', `/api/games?limit=${limit || 100}`);

/** @returns {Promise<Stats>} */
export const getStats = () => call('GET', '/api/stats');

/** @param {{rule: string, size: number, moves: string, nbest: number, time_ms: number}} req
 * @returns {Promise<Analysis>} */
export const analyze = (req) => call('POST', '/api/analyze', req);

/**
 * @typedef {object} ReviewMove
 * @property {number} ply
 * @property {'black' | 'white'} color
 * @property {string} move
 * @property {string} label
 * @property {string | null} best
 * @property {string[]} line
 * @property {number} before
 * @property {number} after
 * @property {number} lost
 * @property {number} black_after
 * @property {boolean} turning
 */
/**
 * @typedef {object} Review
 * @property {'running' | 'done' | 'cancelled' | 'failed' | 'none'} status
 * @property {number} game_id
 * @property {number} searched
 * @property {number} positions
 * @property {ReviewMove[]} [moves]
 * @property {Record<string, Record<string, number>>} [summary]
 */

/** Starts (or joins) the review of a stored game. @param {number} id @returns {Promise<Review>} */
export const startReview = (id) => call('POST', `/api/games/${id}/review`, {});
/** The review's progress or result. @param {number} id @returns {Promise<Review>} */
export const getReview = (id) => call('GET', `/api/games/${id}/review`);
/** @param {number} id @returns {Promise<Review>} */
export const cancelReview = (id) => call('POST', `/api/games/${id}/review/cancel`, {});

/**
 * @typedef {object} PuzzlePlayer
 * @property {number} rating
 * @property {number} deviation
 * @property {number} streak
 * @property {number} best_streak
 * @property {number} solved
 * @property {number} failed
 */
/**
 * @typedef {object} Puzzle
 * @property {number} id
 * @property {string} rule
 * @property {string} kind
 * @property {number} length
 * @property {string} grade
 * @property {number} rating
 * @property {string[]} moves
 * @property {'black' | 'white'} to_move
 * @property {boolean} [daily]
 * @property {PuzzlePlayer} [player]
 */
/** A puzzle near the player's rating. @param {string} kind @returns {Promise<Puzzle>} */
export const nextPuzzle = (kind) => call('GET', `/api/puzzles/next?kind=${encodeURIComponent(kind)}`);
/** @returns {Promise<Puzzle>} */
export const dailyPuzzle = () => call('GET', '/api/puzzles/daily');
/** @param {number} id @param {string[]} moves @param {string} point @param {boolean} hinted
 * @returns {Promise<{verdict: 'wrong' | 'good' | 'solved', reply: string | null, solution: string | null, player?: PuzzlePlayer}>} */
export const puzzleMove = (id, moves, point, hinted) => call('POST', `/api/puzzles/${id}/move`, { moves, point, hinted });
/** @param {number} id @param {string[]} moves @returns {Promise<{hint: string | null}>} */
export const puzzleHint = (id, moves) => call('POST', `/api/puzzles/${id}/hint`, { moves });

/** The coach's sentences for a position.
 * @param {{rule: string, size: number, moves: string, lang: string, what: string, point?: string}} req
 * @returns {Promise<{what: string, sentences: string[]}>} */
export const coach = (req) => call('POST', '/api/coach', req);

/** Reads a record for replay.
 * @param {string} text @param {string} rule @param {number} size @returns {Promise<RecordInfo>} */
export const readRecord = (text, rule, size) => call('POST', '/api/records', { text, rule, size });

/** The download address of a stored game's record.
 * @param {number} id @param {'psq' | 'sgf' | 'moves'} format @returns {string} */
export const recordUrl = (id, format) => `/api/games/${id}/record?format=${format}`;

/**
 * Follows a game's events until close() is called. EventSource reconnects by itself.
 * @param {number} id
 * @param {{state: (s: GameState) => void, thinking: (ms: number) => void, connected: (up: boolean) => void}} on
 * @returns {EventSource}
 */
export function follow(id, on) {
    const es = new EventSource(`/api/games/${id}/events`);
    es.addEventListener('open', () => on.connected(true));
    es.addEventListener('error', () => on.connected(es.readyState === EventSource.OPEN));
    es.addEventListener('state', (e) => on.state(JSON.parse(/** @type {MessageEvent} */ (e).data)));
    es.addEventListener('thinking', (e) => {
        const d = JSON.parse(/** @type {MessageEvent} */ (e).data);
        if (d.thinking) on.thinking(Number(d.thinking_ms) || 0);
    });
    return es;
}
