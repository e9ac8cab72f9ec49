// replay.js: a record shown move by move (a past game, an uploaded record or a shared
// position), and the share link that holds a position in the page's address:
// #rule=renju&size=15&moves=h8i9h9. The server reads and checks every record (POST
// /api/records); the page only steps through the moves it was given.

import * as api from './api.js';
import { t } from './i18n.js';
import { $, colorName, points, resultText } from './app.js';

/** @typedef {import('./app.js').App} App */
/** @typedef {import('./board.js').View} View */
/**
 * @typedef {object} Source
 * @property {string} title
 * @property {string} rule
 * @property {number} size
 * @property {string[]} moves
 * @property {api.Result | null} result
 * @property {number | null} gameId
 */

/** The share link of a position. @param {string} rule @param {number} size @param {string[]} moves
 * @returns {string} */
export function shareLink(rule, size, moves) {
    const q = new URLSearchParams({ rule, size: String(size), moves: moves.join('') });
    return `${location.origin}${location.pathname}#${q.toString()}`;
}

/** The position a share link asks for, unchecked, or null when the address holds none.
 * @param {string} hash @param {api.Config} config
 * @returns {{rule: string, size: number, moves: string} | null} */
export function readShareLink(hash, config) {
    const q = new URLSearchParams(hash.replace(/^#/, ''));
    if (!q.has('moves') && !q.has('rule')) return null;
    const rule = q.get('rule') || config.defaults.rule;
    const size = Number(q.get('size') || config.defaults.size);
    return {
        rule: config.rules.includes(rule) ? rule : config.defaults.rule,
        size: Number.isInteger(size) && size >= config.sizes.min && size <= config.sizes.max ? size : config.defaults.size,
        moves: (q.get('moves') || '').slice(0, 2000),
    };
}

export class Replay {
    /** @param {App} app */
    constructor(app) {
        this.app = app;
        /** @type {Source} */
        this.src = { title: '', rule: 'freestyle', size: 15, moves: [], result: null, gameId: null };
        this.ply = 0;
        $('rp-first').addEventListener('click', () => this.go(0));
        $('rp-prev').addEventListener('click', () => this.go(this.ply - 1));
        $('rp-next').addEventListener('click', () => this.go(this.ply + 1));
        $('rp-last').addEventListener('click', () => this.go(this.src.moves.length));
        $('back-to-game').addEventListener('click', () => {
            history.replaceState(null, '', location.pathname);
            this.app.showGame();
        });
        $('play-on').addEventListener('click', () => {
            this.app.setup.open({
                rule: this.src.rule,
                size: this.src.size,
                moves: this.src.moves.slice(0, this.ply).join(''),
            });
        });
    }

    /** Shows a shared position after the server has read it.
     * @param {{rule: string, size: number, moves: string}} link */
    async load(link) {
        try {
            const r = await api.readRecord(link.moves, link.rule, link.size);
            this.show({ title: t('sharedPosition'), rule: r.rule, size: r.size, moves: r.moves, result: r.result, gameId: null });
        } catch (e) {
            this.app.fail(e);
            this.app.showGame();
        }
    }

    /** Shows a record at its last move. @param {Source} src */
    show(src) {
        this.src = src;
        this.ply = src.moves.length;
        this.app.showing = 'replay';
        this.app.render();
    }

    /** @param {number} ply */
    go(ply) {
        this.ply = Math.max(0, Math.min(this.src.moves.length, ply));
        this.app.render();
    }

    /** @returns {{rule: string, size: number, moves: string[], gameId: number | null}} */
    position() {
        return {
            rule: this.src.rule,
            size: this.src.size,
            moves: this.src.moves.slice(0, this.ply),
            gameId: this.ply === this.src.moves.length ? this.src.gameId : null,
        };
    }

    /** @returns {View} */
    view() {
        const s = this.src;
        const stones = points(s.moves.slice(0, this.ply), s.size).map((p, i) => ({
            ...p,
            color: /** @type {'black' | 'white'} */ (i % 2 ? 'white' : 'black'),
            n: i + 1,
        }));
        const atEnd = this.ply === s.moves.length;
        return {
            size: s.size,
            stones,
            winLine: atEnd && s.result ? points(s.result.line, s.size) : [],
            toMove: null,
            side: this.ply % 2 ? 'white' : 'black',
        };
    }

    renderPanel() {
        const n = this.src.moves.length;
        $('info').textContent = `${this.src.title} · ${t('ruleShort_' + this.src.rule)} ${this.src.size}×${this.src.size}`;
        $('rp-ply').textContent = t('moveOf', this.ply, n);
        const status = $('status');
        const atEnd = this.ply === n;
        const last = this.src.moves[this.ply - 1];
        const played = last ? t('movePlayed', this.ply, colorName(this.ply % 2 ? 'black' : 'white'), last) : t('replay');
        status.textContent = atEnd && this.src.result ? resultText(this.src.result) : played;
        status.classList.toggle('over', atEnd && !!this.src.result);
        for (const [id, on] of /** @type {[string, boolean][]} */ ([
            ['rp-first', this.ply > 0], ['rp-prev', this.ply > 0], ['rp-next', this.ply < n], ['rp-last', this.ply < n],
        ])) {
            /** @type {HTMLButtonElement} */ ($(id)).disabled = !on;
        }
        /** @type {HTMLButtonElement} */ ($('play-on')).disabled = atEnd && !!this.src.result;
    }
}
