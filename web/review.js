// review.js: a game reviewed by the engine (docs/review.md): starts the review on the server,
// shows its progress with a cancel button, then the win-rate graph (SVG, turning points
// marked), each side's counts and the labelled move list. The review is shown over the replay
// of the game: at each ply the panel judges the next move (what was played, how much it lost,
// the better move and its line, drawn on the board) and offers to try again from there. Every
// number comes from the server; this only draws them.

import * as api from './api.js';
import { t } from './i18n.js';
import { $, colorName, points } from './app.js';

/** @typedef {import('./app.js').App} App */
/** @typedef {import('./board.js').Line} Line */

const SVG = 'http://www.w3.org/2000/svg';
/** The mark of each label, so that none relies on colour alone (as chess annotators write). */
const GLYPH = /** @type {Record<string, string>} */ ({
    best: '!', good: '', inaccuracy: '?!', mistake: '?', blunder: '??', 'missed-win': '✗',
});

/** @param {string} tag @param {Record<string, string | number>} attrs @param {Element} parent */
function svgEl(tag, attrs, parent) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    parent.append(e);
    return e;
}

export class Review {
    /** @param {App} app */
    constructor(app) {
        this.app = app;
        /** @type {number | null} the game reviewed */
        this.gameId = null;
        /** @type {api.Review | null} */
        this.data = null;
        this.timer = 0;
        $('review-start').addEventListener('click', () => this.start());
        $('review-cancel').addEventListener('click', () => this.cancel());
    }

    /** The stored game shown now, if it has moves. @returns {number | null} */
    shownGame() {
        if (this.app.showing === 'replay') {
            const src = this.app.replay.src;
            return src.gameId !== null && src.moves.length > 0 ? src.gameId : null;
        }
        const s = this.app.game.state;
        return s && s.moves.length > 0 && !s.thinking ? s.id : null;
    }

    /** Reviews the game shown: replays it and starts (or reads) its review. */
    async start() {
        const id = this.shownGame();
        if (id === null) return;
        if (this.app.showing === 'game') {
            const s = this.app.game.state;
            if (!s) return;
            this.app.replay.show({
                title: t('reviewOf', s.id), rule: s.rule, size: s.size, moves: s.moves, result: s.result, gameId: s.id,
            });
        }
        this.gameId = id;
        this.data = { status: 'running', game_id: id, searched: 0, positions: 0 };
        this.app.render();
        try {
            this.take(await api.startReview(id));
        } catch (e) {
            this.data = null;
            this.app.fail(e);
            this.app.render();
        }
    }

    async cancel() {
        if (this.gameId === null) return;
        clearTimeout(this.timer);
        try {
            this.take(await api.cancelReview(this.gameId));
        } catch (e) {
            this.app.fail(e);
        }
    }

    /** @param {api.Review} r */
    take(r) {
        if (r.game_id !== this.gameId) return;
        this.data = r;
        clearTimeout(this.timer);
        if (r.status === 'running') this.timer = window.setTimeout(() => this.poll(), 600);
        this.app.render();
    }

    async poll() {
        if (this.gameId === null) return;
        try {
            this.take(await api.getReview(this.gameId));
        } catch (e) {
            this.app.fail(e);
        }
    }

    /** Whether a review is shown for the replay on the board. */
    active() {
        return this.app.showing === 'replay' && this.gameId !== null && this.app.replay.src.gameId === this.gameId &&
            this.data !== null;
    }

    /** The move judged at the replay's ply: the next one. @returns {api.ReviewMove | null} */
    current() {
        if (!this.active() || !this.data || !this.data.moves) return null;
        return this.data.moves[this.app.replay.ply] || null;
    }

    /** The better line to draw for the position shown, when the move played there was not the
     * engine's. @returns {Line[]} */
    lines() {
        const m = this.current();
        if (!m || m.label === 'best' || !m.line.length) return [];
        return [{ moves: points(m.line, this.app.replay.src.size), label: `${t('better', m.best || '')}` }];
    }

    /** The evaluation of the position shown, from the review. */
    evaluation() {
        if (!this.active() || !this.data || !this.data.moves || !this.data.moves.length) return null;
        const ms = this.data.moves;
        const ply = this.app.replay.ply;
        const m = ms[ply];
        const black = m ? (m.color === 'black' ? m.before : 100 - m.before) : ms[ms.length - 1].black_after;
        const toMove = ply % 2 ? 'white' : 'black';
        const mine = toMove === 'black' ? black : 100 - black;
        const proved = black === 0 || black === 100;
        return {
            score: 0, winrate: mine, black_winrate: black, proved,
            winner: proved ? (black === 100 ? 'black' : 'white') : null, moves: null,
        };
    }

    renderPanel() {
        const box = $('review');
        const on = this.active();
        /** @type {HTMLButtonElement} */ ($('review-start')).disabled = this.shownGame() === null ||
            (on && !!this.data && (this.data.status === 'running' || this.data.status === 'done'));
        box.hidden = !on;
        if (!on || !this.data) return;
        const d = this.data;
        const running = d.status === 'running';
        $('review-progress').hidden = !running;
        const bar = /** @type {HTMLProgressElement} */ ($('review-bar'));
        bar.max = Math.max(1, d.positions);
        bar.value = d.searched;
        $('review-count').textContent = t('reviewing', d.searched, d.positions);
        const out = $('review-out');
        out.replaceChildren();
        if (d.status === 'cancelled' || d.status === 'failed') {
            const p = document.createElement('p');
            p.textContent = t(d.status === 'cancelled' ? 'reviewCancelled' : 'reviewFailed');
            out.append(p);
            return;
        }
        if (d.status !== 'done' || !d.moves) return;
        out.append(this.graph(d.moves), this.summary(d), this.judgement(), this.moveList(d.moves));
    }

    /** Black's win rate after each move, the turning points marked, the shown ply a line.
     * @param {api.ReviewMove[]} ms */
    graph(ms) {
        const w = 300, h = 100, n = ms.length;
        const x = (/** @type {number} */ i) => (n ? (i / n) * w : 0);
        const y = (/** @type {number} */ p) => h - p;
        const svg = document.createElementNS(SVG, 'svg');
        svg.setAttribute('viewBox', `-4 -4 ${w + 8} ${h + 8}`);
        svg.setAttribute('id', 'review-graph');
        svg.setAttribute('role', 'img');
        const turns = ms.filter((m) => m.turning).map((m) => `${m.ply}. ${m.move} (${t('label_' + m.label)})`);
        svg.setAttribute('aria-label', t('graphLabel', turns.join(', ') || t('noTurning')));
        svgEl('rect', { x: 0, y: 0, width: w, height: h, class: 'g-bg' }, svg);
        svgEl('line', { x1: 0, y1: h / 2, x2: w, y2: h / 2, class: 'g-mid' }, svg);
        const pts = [`0,${y(50)}`, ...ms.map((m, i) => `${x(i + 1)},${y(m.black_after)}`)];
        svgEl('polygon', { points: `0,${h} ${pts.join(' ')} ${x(n)},${h}`, class: 'g-area' }, svg);
        svgEl('polyline', { points: pts.join(' '), class: 'g-line' }, svg);
        for (const m of ms) {
            if (!m.turning) continue;
            const cx = x(m.ply), cy = y(m.black_after);
            svgEl('circle', { cx, cy, r: 4, class: `g-turn g-${m.label}` }, svg);
            const tx = svgEl('text', { x: cx, y: cy < 20 ? cy + 14 : cy - 7, class: 'g-glyph', 'text-anchor': 'middle' }, svg);
            tx.textContent = GLYPH[m.label] || '';
        }
        const ply = this.app.replay.ply;
        svgEl('line', { x1: x(ply), y1: 0, x2: x(ply), y2: h, class: 'g-now' }, svg);
        svg.addEventListener('click', (ev) => {
            const r = svg.getBoundingClientRect();
            const at = Math.round(((ev.clientX - r.left) / r.width) * (w + 8) - 4);
            this.app.replay.go(Math.round((at / w) * n));
        });
        return svg;
    }

    /** @param {api.Review} d */
    summary(d) {
        const p = document.createElement('p');
        p.className = 'small review-summary';
        const s = d.summary || {};
        const side = (/** @type {string} */ c) => {
            const k = s[c] || {};
            return t('reviewSide', colorName(c), k.inaccuracy || 0, k.mistake || 0, k.blunder || 0, k['missed-win'] || 0);
        };
        p.textContent = `${side('black')} · ${side('white')}`;
        return p;
    }

    /** What the panel says about the next move at the shown ply. */
    judgement() {
        const div = document.createElement('div');
        div.id = 'review-now';
        const m = this.current();
        if (!m) {
            div.textContent = t('reviewEnd');
            return div;
        }
        const head = document.createElement('p');
        const glyph = GLYPH[m.label] ? ` ${GLYPH[m.label]}` : '';
        const strong = document.createElement('strong');
        strong.className = `lbl lbl-${m.label}`;
        strong.textContent = `${t('label_' + m.label)}${glyph}`;
        head.append(`${m.ply}. ${colorName(m.color)} ${m.move}: `, strong);
        if (m.lost > 0) head.append(` (${t('lostPct', m.lost)})`);
        div.append(head);
        const ev = document.createElement('p');
        ev.className = 'small';
        ev.textContent = t('beforeAfter', colorName(m.color), m.before, m.after);
        div.append(ev);
        if (m.label !== 'best' && m.best) {
            const better = document.createElement('p');
            better.textContent = `${t('better', m.best)} · ${t('lineText', m.line.slice(0, 8).join(' '))}`;
            div.append(better);
        }
        if (['inaccuracy', 'mistake', 'blunder', 'missed-win'].includes(m.label)) {
            const b = document.createElement('button');
            b.type = 'button';
            b.id = 'review-retry';
            b.textContent = t('tryAgain');
            b.addEventListener('click', () => {
                const src = this.app.replay.src;
                this.app.setup.open({ rule: src.rule, size: src.size, moves: src.moves.slice(0, m.ply - 1).join('') });
            });
            div.append(b);
        }
        return div;
    }

    /** The numbered moves with their labels; each goes to the position before it.
     * @param {api.ReviewMove[]} ms */
    moveList(ms) {
        const ol = document.createElement('ol');
        ol.id = 'review-moves';
        for (const m of ms) {
            const li = document.createElement('li');
            const b = document.createElement('button');
            b.type = 'button';
            b.className = `lbl-${m.label}`;
            const glyph = GLYPH[m.label] || '';
            b.textContent = `${m.move}${glyph}`;
            b.title = t('label_' + m.label);
            b.setAttribute('aria-label', `${m.ply}. ${colorName(m.color)} ${m.move}: ${t('label_' + m.label)}`);
            if (this.app.replay.ply === m.ply - 1) b.setAttribute('aria-current', 'step');
            b.addEventListener('click', () => this.app.replay.go(m.ply - 1));
            li.append(b);
            ol.append(li);
        }
        return ol;
    }
}
