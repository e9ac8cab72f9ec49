// analysis.js: the engine's view of the shown position (POST /api/analyze, what
// `gomoku analyze` gives): evaluation, best move, principal variation and the N best lines,
// listed in the panel and drawn on the board. An analysis belongs to one position and is no
// longer shown once the position changes.

import * as api from './api.js';
import { t, serverText } from './i18n.js';
import { $, colorName, points } from './app.js';
import { evalWords } from './evalbar.js';

/** @typedef {import('./app.js').App} App */
/** @typedef {import('./board.js').Line} Line */
/** @typedef {{rule: string, size: number, moves: string[]}} Position */

/** @param {Position} p @returns {string} */
const keyOf = (p) => `${p.rule}/${p.size}/${p.moves.join('')}`;

export class Analysis {
    /** @param {App} app */
    constructor(app) {
        this.app = app;
        /** @type {{key: string, result: api.Analysis | null, error: string, running: boolean}} */
        this.last = { key: '', result: null, error: '', running: false };
        $('analyse').addEventListener('click', () => this.run());
    }

    async run() {
        const pos = this.app.position();
        const key = keyOf(pos);
        const nbest = Number(/** @type {HTMLSelectElement} */ ($('nbest')).value) || 1;
        this.last = { key, result: null, error: '', running: true };
        this.app.render();
        try {
            const r = await api.analyze({ rule: pos.rule, size: pos.size, moves: pos.moves.join(''), nbest, time_ms: 1000 });
            if (this.last.key === key) this.last = { key, result: r, error: '', running: false };
        } catch (e) {
            const msg = e instanceof api.ApiError && e.status === 503 ? t('busy') : e instanceof Error ? serverText(e.message) : String(e);
            if (this.last.key === key) this.last = { key, result: null, error: msg, running: false };
        }
        this.app.render();
    }

    /** The evaluation of this position, when an analysis of it is shown.
     * @param {Position} pos @returns {import('./evalbar.js').Evaluation | null} */
    evaluationFor(pos) {
        const r = this.last.result;
        if (!r || this.last.key !== keyOf(pos) || !r.evaluation) return null;
        return r.evaluation;
    }

    /** The lines to draw for this position (none when the analysis is of another).
     * @param {Position} pos @returns {Line[]} */
    linesFor(pos) {
        const r = this.last.result;
        if (!r || this.last.key !== keyOf(pos)) return [];
        const lines = r.lines && r.lines.length ? r.lines : [{ move: r.best, eval: r.eval, score: 0, pv: r.pv }];
        return lines.map((l, i) => ({
            moves: points(i === 0 && r.pv.length ? r.pv : l.pv.length ? l.pv : [l.move], pos.size),
            label: `${i + 1}. ${l.move} ${l.eval}`,
        }));
    }

    /** The panel for this position. @param {Position} pos */
    renderPanel(pos) {
        const out = $('analysis-out');
        out.replaceChildren();
        /** @type {HTMLButtonElement} */ ($('analyse')).disabled = this.last.running;
        if (this.last.key !== keyOf(pos)) return;
        if (this.last.running) {
            out.textContent = t('analysing');
            return;
        }
        if (this.last.error) {
            const p = document.createElement('p');
            p.className = 'error';
            p.textContent = this.last.error;
            out.append(p);
            return;
        }
        const r = this.last.result;
        if (!r) return;
        const dl = document.createElement('dl');
        /** @param {string} k @param {string} v @param {string} cls */
        const row = (k, v, cls) => {
            const dt = document.createElement('dt');
            dt.textContent = k;
            const dd = document.createElement('dd');
            dd.textContent = v;
            dd.className = cls;
            dl.append(dt, dd);
        };
        const toMove = pos.moves.length % 2 ? 'white' : 'black';
        const words = r.evaluation ? `${evalWords(r.evaluation, toMove)} (${r.eval})` : r.eval;
        row(t('evalFor', colorName(toMove)), words, 'an-eval');
        row(t('best'), r.best, 'an-best');
        row(t('pv'), r.pv.join(' '), 'an-pv');
        out.append(dl);
        if (r.lines && r.lines.length > 1) {
            const ol = document.createElement('ol');
            ol.className = 'an-lines';
            for (const l of r.lines) {
                const li = document.createElement('li');
                const ev = l.evaluation ? evalWords(l.evaluation, toMove) : l.eval;
                li.textContent = `${l.move} (${ev}) ${l.pv.slice(1, 6).join(' ')}`;
                ol.append(li);
            }
            out.append(ol);
        }
        const small = document.createElement('p');
        small.className = 'small';
        small.textContent = t('depth', r.depth, r.nodes, r.time_ms);
        out.append(small);
    }
}
