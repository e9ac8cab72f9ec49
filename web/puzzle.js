// puzzle.js: puzzle mode (docs/puzzles.md): a puzzle from the server near the player's rating
// (or the puzzle of the day), the player's moves sent one by one and checked by the server,
// which answers with the opponent's move; a hint, the streak and the Glicko-2 rating the server
// keeps. The page decides nothing: every verdict is the server's (src/game/puzzle.c).

import * as api from './api.js';
import { t } from './i18n.js';
import { $, colorName, points } from './app.js';
import { pointName } from './board.js';

/** @typedef {import('./app.js').App} App */
/** @typedef {import('./board.js').Point} Point */
/** @typedef {import('./board.js').View} View */

export class PuzzleMode {
    /** @param {App} app */
    constructor(app) {
        this.app = app;
        /** @type {api.Puzzle | null} */
        this.p = null;
        /** @type {string[]} the moves made in the puzzle: the player's and the replies */
        this.made = [];
        /** @type {'play' | 'solved' | 'wrong'} */
        this.state = 'play';
        this.hinted = false;
        /** @type {string | null} */
        this.hint = null;
        /** @type {string | null} */
        this.solution = null;
        /** @type {api.PuzzlePlayer | null} */
        this.player = null;
        this.busy = false;
        $('open-puzzles').addEventListener('click', () => this.next());
        $('pz-next').addEventListener('click', () => this.next());
        $('pz-daily').addEventListener('click', () => this.daily());
        $('pz-hint').addEventListener('click', () => this.askHint());
        $('pz-back').addEventListener('click', () => this.app.showGame());
    }

    /** @param {api.Puzzle} p */
    show(p) {
        this.p = p;
        this.made = [];
        this.state = 'play';
        this.hinted = false;
        this.hint = null;
        this.solution = null;
        if (p.player) this.player = p.player;
        this.app.showing = 'puzzle';
        this.app.render();
    }

    async next() {
        try {
            this.show(await api.nextPuzzle(String(/** @type {HTMLSelectElement} */ ($('pz-kind')).value)));
        } catch (e) {
            this.app.fail(e);
        }
    }

    async daily() {
        try {
            this.show(await api.dailyPuzzle());
        } catch (e) {
            this.app.fail(e);
        }
    }

    async askHint() {
        if (!this.p || this.state !== 'play') return;
        try {
            const r = await api.puzzleHint(this.p.id, this.made);
            this.hint = r.hint;
            this.hinted = true;
            this.app.render();
        } catch (e) {
            this.app.fail(e);
        }
    }

    /** The player chose a point. @param {Point} p */
    async play(p) {
        if (!this.p || this.state !== 'play' || this.busy) return;
        const point = pointName(p);
        this.busy = true;
        try {
            const r = await api.puzzleMove(this.p.id, this.made, point, this.hinted);
            this.hint = null;
            if (r.verdict === 'wrong') {
                this.state = 'wrong';
                this.solution = r.solution;
            } else {
                this.made.push(point);
                if (r.reply) this.made.push(r.reply);
                if (r.verdict === 'solved') this.state = 'solved';
            }
            if (r.player) this.player = r.player;
        } catch (e) {
            this.app.fail(e);
        }
        this.busy = false;
        this.app.render();
    }

    /** @returns {View} */
    view() {
        const p = this.p;
        if (!p) return { size: 15, stones: [], toMove: null };
        const all = [...p.moves, ...this.made];
        const stones = points(all, 15).map((pt, i) => ({
            ...pt,
            color: /** @type {'black' | 'white'} */ (i % 2 ? 'white' : 'black'),
            n: i + 1,
        }));
        const side = all.length % 2 ? 'white' : 'black';
        return {
            size: 15,
            stones,
            toMove: this.state === 'play' && !this.busy ? side : null,
            side,
            hint: this.hint ? points([this.hint], 15)[0] || null : null,
            lines: this.solution ? [{ moves: points([this.solution], 15), label: t('pzSolution', this.solution) }] : [],
        };
    }

    /** @returns {{rule: string, size: number, moves: string[], gameId: number | null}} */
    position() {
        const p = this.p;
        return { rule: p ? p.rule : 'freestyle', size: 15, moves: p ? [...p.moves, ...this.made] : [], gameId: null };
    }

    renderPanel() {
        const p = this.p;
        if (!p) return;
        $('info').textContent = `${t('puzzle')} #${p.id}${p.daily ? ` · ${t('pzDaily')}` : ''} · ${t('ruleShort_' + p.rule)} · ${t('pzGrade_' + p.grade)} (${p.rating})`;
        const who = colorName(p.to_move);
        const task = t(p.kind === 'defence' ? 'pzDefence' : p.kind === 'threes' ? 'pzThrees' : 'pzFours', who);
        const status = $('status');
        status.classList.toggle('over', this.state !== 'play');
        if (this.state === 'solved') status.textContent = t('pzSolved');
        else if (this.state === 'wrong') status.textContent = this.solution ? t('pzWrong', this.solution) : t('pzWrongNo');
        else status.textContent = task;
        const me = this.player;
        $('pz-player').textContent = me ? t('pzPlayer', me.rating, me.streak, me.best_streak) : '';
        /** @type {HTMLButtonElement} */ ($('pz-hint')).disabled = this.state !== 'play';
    }
}
