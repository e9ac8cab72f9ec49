// app.js: the page's entry point. It loads the server's configuration, picks the language,
// decides what to show first (a shared position from the link, else the game this browser was
// playing, else a new game) and draws the shown position: a live game (game.js) or a replay
// (replay.js). Analysis, the new-game setup and the games dialog live in their own modules.

import * as api from './api.js';
import { Board, parsePoint, pointName } from './board.js';
import { applyTexts, chooseLang, currentLang, setLang, t, serverText } from './i18n.js';
import { Game } from './game.js';
import { Replay, readShareLink, shareLink } from './replay.js';
import { Analysis } from './analysis.js';
import { Setup } from './setup.js';
import { GamesDialog } from './records.js';
import { showEvalBar } from './evalbar.js';
import { Review } from './review.js';
import { Coach } from './coach.js';
import { PuzzleMode } from './puzzle.js';
import { MoveList } from './movelist.js';

/** @typedef {import('./board.js').Point} Point */
/** @typedef {import('./board.js').View} View */

/** @param {string} id @returns {HTMLElement} */
export function $(id) {
    const e = document.getElementById(id);
    if (!e) throw new Error(`#${id} is missing`);
    return e;
}

/** The colour's name in the current language. @param {string} c @returns {string} */
export function colorName(c) {
    return t(c === 'white' ? 'white' : 'black');
}

/** Points from their names, skipping any that do not fit the board.
 * @param {string[]} names @param {number} size @returns {Point[]} */
export function points(names, size) {
    /** @type {Point[]} */
    const out = [];
    for (const n of names) {
        const p = parsePoint(n, size);
        if (p) out.push(p);
    }
    return out;
}

/** The result in words: "Black wins: five in a row d4-h8", or "" when there is none.
 * @param {api.Result | null} r @returns {string} */
export function resultText(r) {
    if (!r) return '';
    if (r.outcome === 'abandoned') return t('abandonedGame');
    const head = r.winner ? t('wins', colorName(r.winner)) : t('draw');
    let why = '';
    if (r.reason === 'five' && r.line.length) why = t('byFive', r.line[0], r.line[r.line.length - 1]);
    else if (r.reason === 'forbidden') why = t('byForbidden', r.point || '', t(r.foul || ''));
    else if (r.reason === 'resign') why = t('byResign', colorName(r.winner === 'black' ? 'white' : 'black'));
    else if (r.reason === 'full-board') why = t('byFull');
    else if (r.reason === 'no-legal-point') why = t('byNoPoint');
    return why ? t('resultWhy', head, why) : head;
}

export class App {
    /** @param {api.Config} config */
    constructor(config) {
        this.config = config;
        this.numbers = localStorage.getItem('gmk.numbers') === '1';
        /** the board drawn larger than the screen, in a scrolling frame (defect 13) */
        this.zoomed = false;
        $('zoom').addEventListener('click', () => {
            this.zoomed = !this.zoomed;
            this.render();
        });
        this.board = new Board(/** @type {any} */ ($('board')), (p) => this.onPlay(p), (p) => this.onFocus(p));
        this.game = new Game(this);
        this.replay = new Replay(this);
        this.analysis = new Analysis(this);
        this.setup = new Setup(this);
        this.games = new GamesDialog(this);
        this.review = new Review(this);
        this.coach = new Coach(this);
        this.puzzle = new PuzzleMode(this);
        this.moveList = new MoveList(this);
        /** @type {'game' | 'replay' | 'puzzle'} what the board shows */
        this.showing = 'game';
        this.messageTimer = 0;
        this.wire();
    }

    wire() {
        const numbers = /** @type {HTMLInputElement} */ ($('numbers'));
        numbers.checked = this.numbers;
        numbers.addEventListener('change', () => {
            this.numbers = numbers.checked;
            localStorage.setItem('gmk.numbers', this.numbers ? '1' : '0');
            this.render();
        });
        const lang = /** @type {HTMLSelectElement} */ ($('lang'));
        lang.value = currentLang();
        lang.addEventListener('change', () => {
            setLang(lang.value === 'zh' ? 'zh' : 'en');
            applyTexts();
            this.setup.fillChoices();
            this.render();
        });
        $('new-game').addEventListener('click', () => this.setup.open(null));
        $('open-games').addEventListener('click', () => this.games.open());
        $('share').addEventListener('click', () => this.share());
        // ← and → step through a replay or a review (not while typing, nor on the board, whose
        // arrows move its cursor)
        document.addEventListener('keydown', (ev) => {
            if (this.showing !== 'replay' || ev.altKey || ev.ctrlKey || ev.metaKey) return;
            const target = /** @type {HTMLElement | null} */ (ev.target);
            if (target && (target.closest('input, select, textarea, dialog, #board'))) return;
            if (ev.key === 'ArrowLeft') this.replay.go(this.replay.ply - 1);
            else if (ev.key === 'ArrowRight') this.replay.go(this.replay.ply + 1);
            else return;
            ev.preventDefault();
        });
    }

    /** The position on the board now: rule, size and moves.
     * @returns {{rule: string, size: number, moves: string[], gameId: number | null}} */
    position() {
        if (this.showing === 'replay') return this.replay.position();
        if (this.showing === 'puzzle') return this.puzzle.position();
        const s = this.game.state;
        if (!s) return { rule: 'freestyle', size: 15, moves: [], gameId: null };
        return { rule: s.rule, size: s.size, moves: s.moves, gameId: s.id };
    }

    /** The evaluation known for the shown position: its analysis, else the live game's hint.
     * @param {{rule: string, size: number, moves: string[]}} pos
     * @returns {import('./evalbar.js').Evaluation | null} */
    evaluationOf(pos) {
        if (this.showing === 'puzzle') return null;
        const a = this.analysis.evaluationFor(pos);
        if (a) return a;
        const r = this.review.evaluation();
        if (r) return r;
        const s = this.game.state;
        if (this.showing === 'game' && s && s.hint && s.hint_eval) return s.hint_eval;
        return null;
    }

    /** Draws everything for the shown position. */
    render() {
        const puzzling = this.showing === 'puzzle';
        const view = this.showing === 'replay' ? this.replay.view() : puzzling ? this.puzzle.view() : this.game.view();
        view.numbers = this.numbers;
        const analysed = puzzling ? [] : this.analysis.linesFor(this.position());
        if (!puzzling) view.lines = analysed.length ? analysed : this.review.lines();
        this.board.show(view);
        this.zoom(view.size);
        const replaying = this.showing === 'replay';
        $('game-controls').hidden = replaying || puzzling;
        $('replay-controls').hidden = !replaying;
        $('replay-actions').hidden = !replaying;
        $('puzzle-controls').hidden = !puzzling;
        // no analysis, coach or review while solving: they would give the answer away
        $('analysis').hidden = puzzling;
        $('coach').hidden = puzzling;
        $('tools').hidden = puzzling;
        $('back-to-game').hidden = !this.game.state;
        if (replaying) this.replay.renderPanel();
        else if (puzzling) this.puzzle.renderPanel();
        else this.game.renderPanel();
        const pos = this.position();
        showEvalBar(this.evaluationOf(pos), pos.moves.length % 2 ? 'white' : 'black');
        const dl = $('downloads');
        dl.hidden = pos.gameId === null || pos.moves.length === 0;
        if (pos.gameId !== null) {
            for (const f of /** @type {const} */ (['psq', 'sgf', 'moves'])) {
                $(`dl-${f}`).setAttribute('href', api.recordUrl(pos.gameId, f));
            }
        }
        this.analysis.renderPanel(pos);
        this.review.renderPanel();
        this.coach.renderPanel();
        this.moveList.render();
    }

    /** On a narrow screen a large board has small cells (17 px at 22x22 on a phone): Zoom draws
     * it at 32 px a cell in a frame that scrolls, and Zoom out fits it again (defect 13). The
     * page can also be pinch-zoomed (the viewport allows it).
     * @param {number} size */
    zoom(size) {
        const wrap = $('board-wrap');
        const svg = /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($('board')));
        const cell = (wrap.clientWidth || window.innerWidth) / (size + 1.2);
        const useful = size >= 13 && (cell < 28 || this.zoomed);
        if (!useful) this.zoomed = false;
        const button = $('zoom');
        button.hidden = !useful;
        button.textContent = t(this.zoomed ? 'zoomOut' : 'zoomIn');
        button.setAttribute('aria-pressed', String(this.zoomed));
        wrap.classList.toggle('zoomed', this.zoomed);
        svg.style.width = this.zoomed ? `${Math.round((size + 1.2) * 32)}px` : '';
    }

    /** A point was chosen on the board. @param {Point} p */
    onPlay(p) {
        if (this.showing === 'game') this.game.play(p);
        else if (this.showing === 'puzzle') this.puzzle.play(p);
    }

    /** The ghost or cursor moved: a touch waiting for its second tap says so.
     * @param {Point | null} p */
    onFocus(p) {
        if (!p) return;
        // (a screen reader reads the grid's active cell itself: board.js labels each cell)
        const name = pointName(p);
        const foul = (this.board.view.forbidden || []).find((f) => f.x === p.x && f.y === p.y);
        if (foul) this.say(t('forbiddenAt', name, foul.label), true);
        else if (this.board.pending) this.say(t('tapAgain', name));
    }

    /** Says text to a screen reader (a polite live region, not shown). @param {string} text */
    announce(text) {
        const a = $('announce');
        a.textContent = '';
        window.setTimeout(() => (a.textContent = text), 30);
    }

    /** Shows a short message under the status line (cleared after a while).
     * @param {string} text @param {boolean} [error] */
    say(text, error) {
        const m = $('message');
        m.textContent = text;
        m.classList.toggle('error', !!error);
        clearTimeout(this.messageTimer);
        if (text) this.messageTimer = window.setTimeout(() => (m.textContent = ''), 6000);
    }

    /** Says what went wrong with a call to the server. @param {unknown} e */
    fail(e) {
        if (e instanceof api.ApiError) {
            if (e.status === 503) this.say(t('busy'), true);
            else if (e.status === 0) this.say(t('offline'), true);
            else this.say(serverText(e.message), true);
        } else {
            this.say(String(e), true);
        }
    }

    /** Puts the shown position in the address bar and offers it to copy. */
    share() {
        const pos = this.position();
        const url = shareLink(pos.rule, pos.size, pos.moves);
        const box = /** @type {HTMLInputElement} */ ($('share-url'));
        box.value = url;
        box.hidden = false;
        box.select();
        if (navigator.clipboard) {
            navigator.clipboard.writeText(url).then(() => this.say(t('copied')), () => {});
        }
    }

    /** Shows the live game. */
    showGame() {
        this.showing = 'game';
        /** @type {HTMLInputElement} */ ($('share-url')).hidden = true; // the replay's link (defect 2)
        this.render();
    }

    /** Starts: a shared position, else this browser's game, else a new game. */
    async start() {
        const shared = readShareLink(location.hash, this.config);
        let saved = Number(localStorage.getItem('gmk.game') || '0');
        if (!(saved > 0)) saved = await this.game.findMine();
        if (saved > 0) {
            const ok = await this.game.open(saved);
            if (!ok && !shared) await this.game.startDraft(this.setup.remembered());
        } else if (!shared) {
            await this.game.startDraft(this.setup.remembered());
        }
        if (shared) this.replay.load(shared);
        else this.render();
    }
}

async function main() {
    /** @type {api.Config} */
    let config;
    try {
        config = await api.getConfig();
    } catch (e) {
        chooseLang('en');
        applyTexts();
        $('status').textContent = e instanceof api.ApiError && e.status === 503 ? t('busy') : t('offline');
        return;
    }
    chooseLang(config.lang);
    applyTexts();
    const app = new App(config);
    await app.start();
    document.body.dataset.ready = '1';
}

main();
