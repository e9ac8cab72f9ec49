// coach.js: the coach's "Why?" (POST /api/coach, docs/review.md "The coach"): for the position
// shown, in the page's language, why the last move lost, what each side has (fours, open
// threes, forced wins, with their stones) and why black's marked points are forbidden (renju).
// The sentences are the server's (src/game/coach.c); this only lists them, and forgets them
// when the position changes.

import * as api from './api.js';
import { currentLang, t } from './i18n.js';
import { $ } from './app.js';
import { pointName } from './board.js';

/** @typedef {import('./app.js').App} App */

export class Coach {
    /** @param {App} app */
    constructor(app) {
        this.app = app;
        /** @type {{key: string, lines: string[], running: boolean}} */
        this.last = { key: '', lines: [], running: false };
        $('coach-why').addEventListener('click', () => this.run());
    }

    /** @returns {string} */
    keyOf() {
        const p = this.app.position();
        return `${p.rule}/${p.size}/${p.moves.join('')}/${currentLang()}`;
    }

    async run() {
        const pos = this.app.position();
        const key = this.keyOf();
        this.last = { key, lines: [], running: true };
        this.app.render();
        const base = { rule: pos.rule, size: pos.size, moves: pos.moves.join(''), lang: currentLang() };
        /** @type {string[]} */
        const lines = [];
        try {
            for (const f of (this.app.board.view.forbidden || []).slice(0, 3)) {
                const r = await api.coach({ ...base, what: 'forbidden', point: pointName(f) });
                lines.push(...r.sentences);
            }
            if (pos.moves.length) lines.push(...(await api.coach({ ...base, what: 'last' })).sentences);
            const over = this.app.showing === 'game' && this.app.game.state && this.app.game.state.over;
            if (!over) lines.push(...(await api.coach({ ...base, what: 'position' })).sentences);
        } catch (e) {
            this.app.fail(e);
        }
        if (this.last.key === key) this.last = { key, lines, running: false };
        this.app.render();
    }

    renderPanel() {
        const out = $('coach-out');
        out.replaceChildren();
        if (this.last.key !== this.keyOf()) return;
        if (this.last.running) {
            out.textContent = t('coachThinking');
            return;
        }
        const ul = document.createElement('ul');
        for (const line of this.last.lines) {
            const li = document.createElement('li');
            li.textContent = line;
            ul.append(li);
        }
        out.append(ul);
    }
}
