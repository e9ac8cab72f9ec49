// online.js: "Play a friend online" (online.html), a room of /api/rooms (docs/http-api.md).
//
// Without a room in the link it offers to create one (rule, size, who plays black, opening,
// clock);
// with #room=CODE it joins it (the first other person takes the seat, later ones watch). The
// seat is the server's HttpOnly cookie, so a reload keeps it. The page follows the room's event
// stream and, after each event, draws the state the server gives: the board, both players
// (names as text only), their clocks and connection ("disconnected 12 s"), how many watch,
// pending offers with accept and decline, and the claim and rematch buttons. During a swap or
// swap2 opening it says what the server asks ("place stone 2 of 3", "choose your colour") and
// offers the choices the server lists to the seat that chooses. It decides
// nothing about play: every click is a request, and the server says what happened. Its texts
// come from i18n.js in the main page's language (the same remembered switch).

import { getConfig } from './api.js';
import { Board, parsePoint, pointName } from './board.js';
import { applyTexts, chooseLang, currentLang, serverText, setLang, t } from './i18n.js';
import './people_texts.js';
import * as people from './people_api.js';

/** @typedef {import('./board.js').Point} Point */
/**
 * @typedef {object} Seat
 * @property {boolean} taken
 * @property {string} name
 * @property {'black' | 'white' | null} color
 * @property {boolean} connected
 * @property {number} since_ms
 */
/**
 * @typedef {object} RoomState
 * @property {number} last_seq
 * @property {string} code
 * @property {'waiting' | 'playing' | 'over'} phase
 * @property {number} size
 * @property {number} clock_ms
 * @property {number} black_ms
 * @property {number} white_ms
 * @property {number} now_ms
 * @property {'black' | 'white' | null} to_move
 * @property {string[]} moves
 * @property {Seat[]} seats
 * @property {number} spectators
 * @property {'black' | 'white' | null} draw_by
 * @property {'black' | 'white' | null} undo_by
 * @property {'black' | 'white' | null} rematch_by
 * @property {number} claim_ms
 * @property {{winner: string | null, outcome: string, reason: string | null, line: string[]} | null} result
 * @property {number} you
 * @property {boolean} muted
 * @property {number} game_no
 * @property {'free' | 'swap' | 'swap2'} opening
 * @property {SwapStep | null} swap
 */
/**
 * A swap opening in progress (docs/http-api.md): who proposes, who acts, the next stone's colour.
 * @typedef {object} SwapStep
 * @property {'place3' | 'choose' | 'place2' | 'choose5'} phase
 * @property {number} first
 * @property {number} actor
 * @property {'black' | 'white' | null} stone
 * @property {number} stones
 * @property {string[]} choices
 */
/**
 * @typedef {object} ChatLine
 * @property {number} seq
 * @property {'chat' | 'mute'} kind
 * @property {number | null} seat
 * @property {string} [name]
 * @property {string} [text]
 * @property {'players' | 'spectators'} [channel]
 * @property {boolean} muted
 */

/** @param {string} id @returns {HTMLElement} */
function $(id) {
    const e = document.getElementById(id);
    if (!e) throw new Error(`#${id} is missing`);
    return e;
}

/** @param {string} id @returns {HTMLInputElement} */
const input = (id) => /** @type {HTMLInputElement} */ ($(id));

/**
 * @param {string} method @param {string} path @param {unknown} [body]
 * @returns {Promise<RoomState>}
 */
async function call(method, path, body) {
    /** @type {RequestInit} */
    const init = { method, credentials: 'same-origin' };
    // every action is JSON, with or without a body: the server refuses any other type (415)
    if (body === undefined && method === 'POST') body = {};
    if (body !== undefined) {
        init.headers = { 'Content-Type': 'application/json' };
        init.body = JSON.stringify(body);
    }
    const res = await fetch(path, init);
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(serverText(String(data.error || res.statusText)));
    return data;
}

/** Minutes and seconds of a clock. @param {number} ms @returns {string} */
function clockText(ms) {
    const s = Math.max(0, Math.ceil(ms / 1000));
    return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** Why a room's game ended, in words ("five in a row"). @param {string | null} reason */
function reasonText(reason) {
    const known = [
        'five', 'forbidden', 'resign', 'time', 'agreement', 'abandonment', 'full-board', 'no-legal-point',
    ];
    return t(reason && known.includes(reason) ? `onWhy_${reason}` : 'onWhy_end');
}

/** The colour's name. @param {string | null} c */
const colorText = (c) => t(c === 'white' ? 'onWhite' : 'onBlack');

/**
 * What a swap opening asks now, for the seat that acts, the other seat, or a spectator (who is
 * told the acting player's name).
 * @param {RoomState} s @param {SwapStep} w @returns {string}
 */
function swapText(s, w) {
    const placing = w.phase === 'place3' || w.phase === 'place2';
    const n = w.phase === 'place3' ? w.stones + 1 : w.stones - 2;
    const stone = colorText(w.stone);
    if (s.you === w.actor) {
        if (w.phase === 'place3') return t('swapPlace3You', n, stone);
        if (w.phase === 'place2') return t('swapPlace2You', n, stone);
        if (w.phase === 'choose5') return t('swapChoose5You');
        return t(w.choices.includes('place2') ? 'swapChooseYou' : 'swapChooseYouSwap');
    }
    const key = placing ? (w.phase === 'place3' ? 'onSwapPlace3' : 'onSwapPlace2')
        : w.choices.includes('place2') ? 'onSwapChoose3' : 'onSwapChoose';
    const who = s.you >= 0 ? t('onYourFriend') : s.seats[w.actor].name;
    return t(key, who, n, stone);
}

class Room {
    /** @param {string} code */
    constructor(code) {
        this.code = code;
        /** @type {RoomState | null} */
        this.state = null;
        this.skew = 0; // server clock minus ours
        this.fetching = false;
        this.again = false;
        this.board = new Board(/** @type {SVGSVGElement} */ (/** @type {unknown} */ ($('board'))), (p) => this.play(p));
        this.events = new EventSource(`/api/rooms/${code}/events`);
        this.events.addEventListener('state', (e) => this.show(JSON.parse(/** @type {MessageEvent} */ (e).data)));
        this.events.addEventListener('room', () => this.refresh());
        // chat lines (and this seat's mutes): each drawn once, by its number, as text only
        this.chatSeen = new Set();
        this.settled = ''; // "game:stones" when this page saw the swap opening's colours settled
        this.events.addEventListener('chat', (e) => this.chatLine(JSON.parse(/** @type {MessageEvent} */ (e).data)));
        $('chat-form').addEventListener('submit', (e) => { e.preventDefault(); this.say(); });
        input('mute').addEventListener('change', () => this.act('mute', { mute: input('mute').checked }));
        // the watchers' count is not in the room's log: an event of no number, at most once a second
        this.events.addEventListener('spectators', () => this.refresh());
        this.events.addEventListener('error', () => { if (this.state) this.refresh(); });
        $('room').hidden = false;
        $('board-wrap').hidden = false; // no empty board before there is a room (defect 11)
        input('room-link').value = `${location.origin}/online.html#room=${code}`;
        $('room-code').textContent = code.replace(/(.{4})(?=.)/g, '$1-');
        for (const [id, what] of [['undo', 'undo'], ['draw', 'draw'], ['claim', 'claim'], ['rematch', 'rematch']]) {
            $(id).addEventListener('click', () => this.act(what));
        }
        $('resign').addEventListener('click', () => { if (confirm(t('resignAsk'))) this.act('resign'); });
        $('offer-accept').addEventListener('click', () => this.answer(true));
        $('offer-decline').addEventListener('click', () => this.answer(false));
        for (const c of ['black', 'white', 'place2']) {
            $(`swap-${c}`).addEventListener('click', () => this.act('choose', { choice: c }));
        }
        setInterval(() => this.tick(), 250);
    }

    /** Fetches the state again (once at a time; an event meanwhile fetches once more). */
    async refresh() {
        if (this.fetching) {
            this.again = true;
            return;
        }
        this.fetching = true;
        try {
            do {
                this.again = false;
                this.show(await call('GET', `/api/rooms/${this.code}`));
            } while (this.again);
        } catch (e) {
            this.message(String(/** @type {Error} */ (e).message));
        } finally {
            this.fetching = false;
        }
    }

    /** @param {string} text */
    message(text) {
        $('message').textContent = text;
    }

    /** @param {string} what @param {unknown} [body] */
    async act(what, body) {
        this.message('');
        try {
            this.show(await call('POST', `/api/rooms/${this.code}/${what}`, body));
        } catch (e) {
            this.message(String(/** @type {Error} */ (e).message));
        }
    }

    /** @param {boolean} accept */
    async answer(accept) {
        const s = this.state;
        if (!s) return;
        const what = s.draw_by && s.draw_by !== this.myColor() ? 'draw-answer' : 'undo-answer';
        this.message('');
        try {
            this.show(await call('POST', `/api/rooms/${this.code}/${what}`, { accept }));
        } catch (e) {
            this.message(String(/** @type {Error} */ (e).message));
        }
    }

    /** Sends the chat line typed (a spectator's with the name typed beside it). */
    async say() {
        const text = input('chat-text').value.trim();
        if (!text) return;
        /** @type {{text: string, name?: string}} */
        const body = { text };
        if (!this.state || this.state.you < 0) {
            body.name = input('chat-name').value.trim();
            localStorage.setItem('gmk.name', body.name);
        }
        this.message('');
        try {
            await call('POST', `/api/rooms/${this.code}/chat`, body);
            input('chat-text').value = '';
        } catch (e) {
            this.message(String(/** @type {Error} */ (e).message));
        }
    }

    /** Draws a chat line from the stream: the name and the text as text (textContent), each
     * isolated (bdi) so that right-to-left text cannot reorder what follows.
     * @param {ChatLine} c */
    chatLine(c) {
        if (this.chatSeen.has(c.seq)) return;
        this.chatSeen.add(c.seq);
        if (c.kind === 'mute') {
            input('mute').checked = c.muted;
            return;
        }
        const li = document.createElement('li');
        const who = document.createElement('bdi');
        who.className = 'who';
        who.textContent = c.name || '';
        const text = document.createElement('bdi');
        text.className = 'text';
        text.textContent = c.text || '';
        li.append(who, text);
        if (c.muted) {
            li.classList.add('muted');
            li.title = t('onChatMuted');
        }
        const list = $('chat-lines');
        const bottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
        list.append(li);
        while (list.children.length > 200) list.firstElementChild?.remove();
        if (bottom) list.scrollTop = list.scrollHeight;
    }

    /** @param {Point} p */
    async play(p) {
        const s = this.state;
        if (!s) return;
        this.message('');
        try {
            this.show(await call('POST', `/api/rooms/${this.code}/move`, { point: pointName(p), ply: s.moves.length }));
        } catch (e) {
            this.message(String(/** @type {Error} */ (e).message));
            this.refresh();
        }
    }

    /** @returns {'black' | 'white' | null} */
    myColor() {
        const s = this.state;
        return s && s.you >= 0 ? s.seats[s.you].color : null;
    }

    /** @param {RoomState} s */
    show(s) {
        // answers can arrive out of order (a change's answer waits for the disk, a refresh
        // does not): never go back to an older state of the room
        if (this.state && s.last_seq < this.state.last_seq) return;
        const before = this.state;
        this.state = s;
        this.skew = s.now_ms - Date.now();
        const me = this.myColor();
        const stones = s.moves.map((m, i) => {
            const p = parsePoint(m, s.size) || { x: 0, y: 0 };
            return { ...p, color: /** @type {'black' | 'white'} */ (i % 2 ? 'white' : 'black'), n: i + 1 };
        });
        const winLine = s.result && s.result.reason === 'five'
            ? s.result.line.map((m) => parsePoint(m, s.size)).filter((p) => p !== null) : [];
        const myTurn = s.phase === 'playing' && me !== null && s.to_move === me;
        // in a swap opening the seat that acts places stones of either colour, or chooses
        const swap = s.phase === 'playing' ? s.swap : null;
        const placing = swap ? (myTurn && swap.stone ? swap.stone : null) : (myTurn ? me : null);
        this.board.show({ size: s.size, stones, winLine: /** @type {Point[]} */ (winLine), toMove: placing });
        document.body.dataset.room = s.phase;
        document.body.dataset.moves = String(s.moves.length);
        const other = me === 'black' ? 'white' : 'black';
        let status;
        if (s.phase === 'waiting') status = t('onWaiting');
        else if (s.phase === 'over' && s.result) {
            const r = s.result;
            status = r.winner ? t('onWinsBy', colorText(r.winner), reasonText(r.reason)) : t('onDrawBy', reasonText(r.reason));
            // the players are told who won (defect 12: the winner read only "Black wins by five")
            if (r.winner && me !== null) status += ` ${r.winner === me ? t('youWin') : t('youLose')}`;
        } else if (swap) status = swapText(s, swap);
        else if (me === null) status = t('onWatchMove', colorText(s.to_move));
        else status = myTurn ? t('onYourMove') : t('onTheirMove');
        // the colours were just settled: say which one is this player's, until the next move
        if (before && before.swap && !swap && me !== null) this.settled = `${s.game_no}:${s.moves.length}`;
        if (this.settled === `${s.game_no}:${s.moves.length}` && me !== null && s.phase === 'playing') {
            status = `${t('swapYouPlay', colorText(me))}${currentLang() === 'zh' ? '。' : '. '}${status}`;
        }
        $('status').textContent = status;
        const choosing = !!swap && myTurn && swap.choices.length > 0;
        const wasChoosing = !$('swap-choice').hidden;
        $('swap-choice').hidden = !choosing;
        for (const c of ['black', 'white', 'place2']) $(`swap-${c}`).hidden = !choosing || !swap.choices.includes(c);
        if (choosing && !wasChoosing) (/** @type {HTMLElement} */ ($('swap-choice').querySelector('button:not([hidden])')))?.focus();
        $('room-opening').hidden = s.opening === 'free';
        $('room-opening').textContent = s.opening === 'free' ? '' : `${t('opening')}${currentLang() === 'zh' ? '：' : ': '}${t(s.opening === 'swap' ? 'openingSwap' : 'openingSwap2')}`;
        const pending = s.draw_by && s.draw_by === other ? t('onDrawOffered')
            : s.undo_by && s.undo_by === other ? t('onUndoAsked') : '';
        $('offer').hidden = !pending || me === null || s.phase !== 'playing';
        $('offer-text').textContent = pending;
        // the side that offered a draw or asked to undo sees it, and is told when it is declined
        // (defect 3: it saw nothing)
        let mine = '';
        if (me !== null && s.phase === 'playing') {
            if (s.draw_by === me) mine = t('onDrawWaiting');
            else if (s.undo_by === me) mine = t('onUndoWaiting');
            else if (before && before.draw_by === me && !s.draw_by) mine = t('onDrawDeclined');
            else if (before && before.undo_by === me && !s.undo_by && s.moves.length >= before.moves.length)
                mine = t('onUndoDeclined');
            else if (!before || (before.draw_by !== me && before.undo_by !== me)) mine = $('my-offer').textContent || '';
        }
        if (before && s.moves.length !== before.moves.length && !s.draw_by && !s.undo_by) mine = '';
        $('my-offer').textContent = mine;
        // the link is for the players until the friend has come; a spectator has nobody to invite
        // (defect 12)
        $('invite').hidden = me === null || s.seats[1].taken;
        const playing = s.phase === 'playing' && me !== null;
        $('actions').hidden = me === null;
        for (const id of ['undo', 'draw', 'resign']) /** @type {HTMLButtonElement} */ ($(id)).disabled = !playing;
        $('rematch').hidden = !(s.phase === 'over' && me !== null);
        $('rematch').textContent = t(s.rematch_by === me ? 'onRematchAsked' : s.rematch_by ? 'onRematchAccept' : 'onRematch');
        $('watchers').textContent = s.spectators === 1 ? t('onWatchers1') : t('onWatchersN', s.spectators);
        // the players' chat is theirs, the spectators' chat the spectators' (docs/rooms.md)
        $('chat-title').textContent = me !== null ? t('onChatPlayers') : t('onChatSpectators');
        const name = input('chat-name');
        if (me === null && name.hidden) {
            name.hidden = false;
            name.value = name.value || localStorage.getItem('gmk.name') || '';
        }
        $('mute-row').hidden = me === null;
        input('mute').checked = !!s.muted;
        this.tick();
    }

    /** Clocks, connection times and the claim button, between events. */
    tick() {
        const s = this.state;
        if (!s) return;
        const now = Date.now() + this.skew;
        const elapsed = now - s.now_ms;
        for (let i = 0; i < 2; i++) {
            const seat = s.seats[i];
            const li = $(`seat-${i}`);
            const q = (/** @type {string} */ sel) => /** @type {HTMLElement} */ (li.querySelector(sel));
            q('.stone-dot').className = `stone-dot ${seat.color || ''}`;
            q('.name').textContent = seat.taken ? (s.you === i ? t('onYou', seat.name) : seat.name) : '…';
            li.classList.toggle('to-move', s.phase === 'playing' && seat.color === s.to_move);
            let left = seat.color === 'black' ? s.black_ms : s.white_ms;
            if (s.phase === 'playing' && seat.color === s.to_move) left -= elapsed;
            q('.clock').textContent = s.clock_ms > 0 && seat.taken ? clockText(left) : '';
            const conn = q('.conn');
            const secs = Math.max(0, Math.floor((now - seat.since_ms) / 1000));
            conn.textContent = !seat.taken ? '' : seat.connected ? t('onConnected') : t('onDisconnected', secs);
            conn.classList.toggle('off', seat.taken && !seat.connected);
        }
        $('claim').hidden = !(s.phase === 'playing' && s.you >= 0 && s.claim_ms > 0 && now >= s.claim_ms &&
            s.to_move !== this.myColor());
    }
}

/** The room code of the link (#room=CODE), or ''. */
function linkCode() {
    const m = /^#room=([A-Za-z0-9-]{12,20})$/.exec(location.hash);
    return m ? m[1].toUpperCase() : '';
}

/** @param {string} code */
async function enter(code) {
    $('create-form').hidden = true;
    $('join-form').hidden = true;
    history.replaceState(null, '', `#room=${code}`);
    room = new Room(code);
}

/** The room shown, once there is one (a language switch draws it again). @type {Room | null} */
let room = null;

/** Picks the language (the remembered switch, the browser's, else the server's) and wires the
 * switch: it fills the static texts again and redraws the room. */
async function setupLang() {
    let serverLang = 'en';
    try {
        serverLang = (await getConfig()).lang;
    } catch {
        // the room calls below say what is wrong with the server
    }
    chooseLang(serverLang);
    applyTexts('onTitle');
    const sel = /** @type {HTMLSelectElement} */ ($('lang'));
    sel.value = currentLang();
    sel.addEventListener('change', () => {
        setLang(sel.value === 'zh' ? 'zh' : 'en');
        applyTexts('onTitle');
        if (room && room.state) room.show(room.state);
    });
}

async function main() {
    await setupLang();
    const saved = localStorage.getItem('gmk.name') || '';
    input('create-name').value = saved;
    input('join-name').value = saved;
    // signed in: one plays under the account's name (the server uses it), and may play rated
    const account = await people.me().catch(() => null);
    if (account) {
        for (const id of ['create-name', 'join-name']) {
            input(id).value = account.name;
            input(id).readOnly = true;
        }
        $('rated-row').hidden = false;
    }
    const remember = (/** @type {string} */ name) => localStorage.setItem('gmk.name', name);
    $('create-form').addEventListener('submit', async (e) => {
        e.preventDefault();
        const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
        const name = String(f.get('name') || '').trim();
        try {
            const s = await call('POST', '/api/rooms', {
                name, rule: f.get('rule'), size: Number(f.get('size')), black: f.get('black'), clock: f.get('clock'),
                opening: f.get('opening'),
                rated: f.get('rated') === 'on',
            });
            remember(name);
            await enter(s.code);
        } catch (err) {
            $('message').textContent = String(/** @type {Error} */ (err).message);
        }
    });
    $('join-form').addEventListener('submit', async (e) => {
        e.preventDefault();
        const name = input('join-name').value.trim();
        const code = input('join-code').value.trim();
        try {
            const s = await call('POST', `/api/rooms/${encodeURIComponent(code)}/join`, { name });
            remember(name);
            await enter(s.code);
        } catch (err) {
            $('message').textContent = String(/** @type {Error} */ (err).message);
        }
    });
    const code = linkCode();
    if (code) {
        try {
            const s = await call('GET', `/api/rooms/${code}`);
            if (s.you >= 0 || s.seats[1].taken) { // our seat, or a full room to watch
                await enter(s.code);
            } else { // the free seat: a name first
                input('join-code').value = s.code;
                $('join-form').hidden = false;
            }
        } catch (err) {
            $('message').textContent = String(/** @type {Error} */ (err).message);
            $('create-form').hidden = false;
        }
    } else {
        $('create-form').hidden = false;
        $('join-form').hidden = false;
    }
    document.body.dataset.ready = '1';
}

main();
