// game.js: the live game. It sends the player's intents (move, undo, redo, resign, hint) to
// the server and draws the state the server answers with; the computer's moves and every other
// change arrive by the game's event stream (server-sent events), never by polling. The page
// decides nothing: whose turn it is, what is legal and how the game ended all come from the
// state object (docs/http-api.md).

import * as api from './api.js';
import { pointName } from './board.js';
import { currentLang, t } from './i18n.js';
import { $, colorName, points, resultText } from './app.js';
import { evalWords } from './evalbar.js';

/** @typedef {import('./app.js').App} App */
/** @typedef {import('./board.js').Point} Point */
/** @typedef {import('./board.js').View} View */

export class Game {
    /** @param {App} app */
    constructor(app) {
        this.app = app;
        /** @type {api.GameState | null} */
        this.state = null;
        /** @type {EventSource | null} */
        this.events = null;
        /** counts the states from the event stream, to drop a reply that they overtook */
        this.streamed = 0;
        /** when the computer started thinking (performance.now() time), or 0 */
        this.thinkingSince = 0;
        this.ticker = 0;
        this.busy = false;
        /** A first visit's game, not yet on the server: it is created with the first move, so
         * that a visit that plays nothing stores nothing (defect 10).
         * @type {Record<string, unknown> | null} */
        this.draft = null;
        $('undo').addEventListener('click', () => this.act('undo'));
        $('redo').addEventListener('click', () => this.act('redo'));
        $('hint').addEventListener('click', () => this.act('hint'));
        $('resign').addEventListener('click', () => this.askResign());
        for (const c of /** @type {const} */ (['black', 'white', 'place2'])) {
            $(c === 'place2' ? 'swap-place2' : `swap-${c}`).addEventListener('click', () => this.choose(c));
        }
        const dialog = /** @type {HTMLDialogElement} */ ($('resign-dialog'));
        $('resign-no').addEventListener('click', () => dialog.close());
        $('resign-yes').addEventListener('click', () => {
            dialog.close();
            this.act('resign');
        });
    }

    /** Opens a stored game and follows its events; false when it cannot be had.
     * @param {number} id @returns {Promise<boolean>} */
    async open(id) {
        try {
            const s = await api.getGame(id);
            this.follow(s);
            return true;
        } catch (e) {
            if (e instanceof api.ApiError && e.status === 404) localStorage.removeItem('gmk.game');
            else this.app.fail(e);
            return false;
        }
    }

    /** The id of this browser's latest unfinished game with moves, or 0 (when this page's
     * storage has forgotten it, e.g. the server now listens on another port).
     * @returns {Promise<number>} */
    async findMine() {
        try {
            const list = await api.listGames(50);
            const g = list.games.find((x) => x.owner && !x.finished && !x.abandoned && x.moves > 0);
            return g ? g.id : 0;
        } catch (e) {
            return 0;
        }
    }

    /** Starts a new game on the server and shows it.
     * @param {Record<string, unknown>} setup @returns {Promise<boolean>} */
    async create(setup) {
        try {
            const s = await api.createGame(setup);
            this.follow(s);
            this.app.say('');
            this.app.showGame();
            return true;
        } catch (e) {
            this.app.fail(e);
            return false;
        }
    }

    /** A first visit: the board of a new game where the player moves first, created on the
     * server by the first move; a game where the computer opens (or a swap opening) at once.
     * @param {Record<string, unknown>} setup @returns {Promise<boolean>} */
    async startDraft(setup) {
        const computerFirst = setup.mode !== 'hvh' && setup.human === 'white';
        if (computerFirst || (setup.opening && setup.opening !== 'free')) return this.create(setup);
        this.draft = setup;
        this.state = null;
        this.app.render();
        return true;
    }

    /** Shows s and follows its game's event stream. @param {api.GameState} s */
    follow(s) {
        this.draft = null;
        if (this.events) this.events.close();
        this.state = null;
        this.apply(s);
        if (s.owner) localStorage.setItem('gmk.game', String(s.id));
        this.events = api.follow(s.id, {
            state: (st) => {
                if (!this.state || st.id !== this.state.id) return;
                this.streamed++;
                this.apply(st);
            },
            thinking: (ms) => {
                this.thinkingSince = performance.now() - ms;
                this.tick();
            },
            connected: (up) => {
                if (!up) this.app.say(t('offline'), true);
                else if ($('message').textContent === t('offline')) this.app.say('');
            },
        });
    }

    /** Takes a new state and redraws. @param {api.GameState} s */
    apply(s) {
        const wasOver = this.state ? this.state.over : true;
        const prevPhase = this.state && this.state.id === s.id ? this.state.phase : null;
        const before = this.state && this.state.id === s.id ? this.state.moves.length : -1;
        this.state = s;
        // a screen reader hears each new move ("Black h8"); the first state of a game is not news
        if (before >= 0 && s.moves.length > before) {
            const last = s.moves.length - 1;
            this.app.announce(t('movedAnn', colorName(last % 2 ? 'white' : 'black'), s.moves[last]));
        }
        // the hint has come: "Looking for a hint…" is no longer true (defect 1)
        if (s.hint && $('message').textContent === t('hinting')) this.app.say('');
        if (s.thinking) {
            if (!this.thinkingSince) this.thinkingSince = performance.now() - s.thinking_ms;
            if (!this.ticker) this.ticker = window.setInterval(() => this.tick(), 100);
        } else {
            this.thinkingSince = 0;
            clearInterval(this.ticker);
            this.ticker = 0;
        }
        if (s.over && !wasOver) this.app.games.changed();
        // a swap opening has settled the colours: say which one is the player's
        if (before >= 0 && prevPhase && !s.phase && s.mode === 'hvc' && s.human) {
            this.app.announce(t('swapYouPlay', colorName(s.human)));
        }
        if (this.app.showing === 'game') this.app.render();
    }

    /** Redraws the status line while the computer thinks. */
    tick() {
        if (this.app.showing === 'game') $('status').textContent = this.statusText();
    }

    /** What the board shows for the game. @returns {View} */
    view() {
        const s = this.state;
        const d = this.draft;
        if (!s && d) return { size: Number(d.size) || 15, stones: [], toMove: this.busy ? null : 'black', side: 'black' };
        if (!s) return { size: 15, stones: [], toMove: null };
        const stones = points(s.moves, s.size).map((p, i) => ({
            ...p,
            color: /** @type {'black' | 'white'} */ (i % 2 ? 'white' : 'black'),
            n: i + 1,
        }));
        const mine = s.owner && s.your_turn && !this.busy;
        return {
            size: s.size,
            stones,
            winLine: s.result ? points(s.result.line, s.size) : [],
            forbidden: s.forbidden.map((f) => {
                const p = points([f.point], s.size)[0] || { x: -1, y: -1 };
                return { ...p, kind: f.kind, label: t(f.kind) };
            }).filter((f) => f.x >= 0),
            hint: s.hint ? points([s.hint], s.size)[0] || null : null,
            toMove: mine ? s.to_move : null,
            side: s.to_move,
        };
    }

    /** The status line: whose turn, the computer thinking, or the result.
     * @returns {string} */
    statusText() {
        const s = this.state;
        if (!s && this.draft) return t(this.draft.mode === 'hvh' ? 'toMove' : 'toMoveYou', colorName('black'));
        if (!s) return '';
        if (s.over) {
            const text = resultText(s.result);
            if (s.mode === 'hvc' && s.owner && s.result && s.result.winner) {
                return t('resultYou', text, s.result.winner === s.human ? t('youWin') : t('youLose'));
            }
            return text;
        }
        if (s.thinking) {
            const secs = this.thinkingSince ? (performance.now() - this.thinkingSince) / 1000 : s.thinking_ms / 1000;
            if (s.phase) return t(s.phase === 'place3' ? 'swapProposing' : 'swapChoosing', secs.toFixed(1));
            return t('thinking', colorName(s.to_move), secs.toFixed(1));
        }
        if (s.phase) return this.openingText(s);
        const who = colorName(s.to_move);
        const turn = s.mode === 'hvc' && s.human === s.to_move ? t('toMoveYou', who) : t('toMove', who);
        let text = s.owner ? turn : t('watching', s.id, turn);
        if (s.hint) {
            text += ` · ${t('hintAt', s.hint)}`;
            if (s.hint_eval) text += ` (${evalWords(s.hint_eval, s.to_move)})`;
        }
        return text;
    }

    /** The status line during a swap opening: who places or chooses.
     * @param {api.GameState} s @returns {string} */
    openingText(s) {
        const n = s.moves.length;
        const hvh = s.mode === 'hvh';
        if (s.phase === 'place3') return t(hvh ? 'swapPlace3Hvh' : 'swapPlace3You', n + 1, colorName(s.to_move));
        if (s.phase === 'place2') return t(hvh ? 'swapPlace2Hvh' : 'swapPlace2You', n - 2, colorName(s.to_move));
        if (hvh) return t(s.phase === 'choose' ? 'swapChooseSecond' : 'swapChooseFirst');
        if (s.phase === 'choose5') return t('swapChoose5You');
        return t((s.choices || []).includes('place2') ? 'swapChooseYou' : 'swapChooseYouSwap');
    }

    /** Swap openings: the player's choice. @param {'black' | 'white' | 'place2'} c */
    async choose(c) {
        const s = this.state;
        if (!s || this.busy) return;
        await this.send(() => api.choose(s.id, c), () => '');
    }

    /** The side panel of a live game. */
    renderPanel() {
        const s = this.state;
        const status = $('status');
        status.textContent = this.statusText();
        status.classList.toggle('over', !!(s && s.over));
        const info = $('info');
        if (s) {
            const level = this.app.config.levels.find((l) => l.level === s.level);
            const levelName = level ? (currentLang() === 'zh' ? level.name_zh : level.name) : '';
            const parts = [`#${s.id}`, `${t('ruleShort_' + s.rule)} ${s.size}×${s.size}`, t(s.mode)];
            if (s.mode === 'hvc') parts.push(`${t('level')} ${s.level} ${levelName}`);
            if (s.opening === 'swap' || s.opening === 'swap2') parts.push(t(s.opening === 'swap' ? 'openingSwap' : 'openingSwap2'));
            info.textContent = parts.join(' · ');
        } else {
            info.textContent = '';
        }
        const own = !!(s && s.owner && !this.busy);
        /** @param {string} id @param {boolean} on */
        const enable = (id, on) => {
            /** @type {HTMLButtonElement} */ ($(id)).disabled = !on;
        };
        enable('undo', own && !!s && s.can_undo);
        enable('redo', own && !!s && s.can_redo);
        enable('hint', own && !!s && s.your_turn && !s.over);
        enable('resign', own && !!s && !s.over && !s.phase);
        const choosing = own && !!s && !!s.you_choose;
        $('swap-choice').hidden = !choosing;
        for (const c of ['black', 'white', 'place2']) {
            $(c === 'place2' ? 'swap-place2' : `swap-${c}`).hidden = !choosing || !(s && s.choices || []).includes(/** @type {any} */ (c));
        }
    }

    /** The player chose a point. @param {Point} p */
    async play(p) {
        const s = this.state;
        if (!s && this.draft && !this.busy) { // the first move creates the game
            const d = this.draft;
            this.busy = true;
            const ok = await this.create({ ...d, moves: pointName(p) });
            this.busy = false;
            if (!ok) this.draft = d;
            this.app.render();
            return;
        }
        if (!s || this.busy) return;
        const point = pointName(p);
        await this.send(() => api.move(s.id, point, s.moves.length), (e) => {
            if (e.reason === 'stale') {
                this.refresh();
                return null;
            }
            if (e.reason === 'occupied') return t('occupied', point);
            if (e.reason === 'forbidden') return t('forbiddenAt', point, t(e.kind));
            if (e.reason === 'not-your-turn') return t('notYourTurn');
            if (e.reason === 'game-over') return t('gameOver');
            if (e.reason === 'choose') return t('chooseFirst');
            return '';
        });
    }

    /** undo, redo, resign or hint. @param {'undo' | 'redo' | 'resign' | 'hint'} what */
    async act(what) {
        const s = this.state;
        if (!s || this.busy) return;
        await this.send(() => api.action(s.id, what), (e) => {
            if (e.status !== 409) return '';
            if (what === 'undo') return t('nothingUndo');
            if (what === 'redo') return t('nothingRedo');
            return '';
        });
        if (what === 'hint' && this.state && !this.state.hint) this.app.say(t('hinting'));
    }

    /** Reads the game again (after a click on a position that had already moved on). */
    async refresh() {
        const s = this.state;
        if (!s) return;
        try {
            this.apply(await api.getGame(s.id));
        } catch (e) {
            this.app.fail(e);
        }
    }

    askResign() {
        /** @type {HTMLDialogElement} */ ($('resign-dialog')).showModal();
    }

    /**
     * Sends one intent; shows the state it answers unless the event stream has already told us
     * something newer.
     * @param {() => Promise<api.GameState>} request
     * @param {(e: api.ApiError) => string | null} explain  the message for a refusal ('': the
     *     server's; null: nothing to say)
     */
    async send(request, explain) {
        const before = this.streamed;
        this.busy = true;
        this.app.render();
        try {
            const st = await request();
            this.busy = false;
            this.app.say('');
            if (this.streamed === before) this.apply(st);
            else this.app.render();
        } catch (e) {
            this.busy = false;
            this.app.render();
            const msg = e instanceof api.ApiError && e.status >= 400 && e.status < 500 ? explain(e) : '';
            if (msg) this.app.say(msg, true);
            else if (msg === '') this.app.fail(e);
        }
    }
}
