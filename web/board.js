// board.js: the board drawn in SVG, and the pointer, touch and keyboard input on it.
//
// The board only draws what it is given (stones, last move, winning line, forbidden points,
// hint, analysis lines) and reports the point a player chose; it decides nothing about play.
// Points are {x, y}: x is the column from the left (0 = "a"), y the row from the bottom
// (0 = row 1), as in the renju notation the server speaks ("h8").
// Input: a mouse shows a ghost stone under the pointer and plays on click; a touch shows the
// ghost on the first tap and plays on a second tap at the same point; the arrow keys move a
// cursor and Enter or Space plays it.
// For screen readers the board is an ARIA grid (role="grid", rows of gridcells, one a point,
// each labelled with its name and what is on it: "h8: Black, last move"); the keyboard cursor is
// the grid's active cell (aria-activedescendant), so a screen reader reads each cell the cursor
// reaches; Home/End go to the row's ends, PageUp/PageDown to the column's. The drawing itself
// is hidden from them (aria-hidden), its facts being in the cells' labels.

import { t } from './i18n.js';

const SVG = 'http://www.w3.org/2000/svg';
const CELL = 40;
const MARGIN = 44;

/** @typedef {{x: number, y: number}} Point */
/** @typedef {{x: number, y: number, color: 'black' | 'white', n: number}} Stone */
/** @typedef {{x: number, y: number, kind: string, label: string}} Forbidden */
/** @typedef {{moves: Point[], label: string}} Line */
/**
 * @typedef {object} View
 * @property {number} size
 * @property {Stone[]} stones           in the order they were played
 * @property {Point[]} [winLine]        the five (or more) that won
 * @property {Forbidden[]} [forbidden]  black's forbidden points, shown on black's turn
 * @property {Point | null} [hint]
 * @property {Line[]} [lines]           analysis: first line is the principal variation
 * @property {'black' | 'white' | null} toMove  the colour of the ghost stone; null: no input
 * @property {'black' | 'white'} [side]  the side to move in the position (colours the PV)
 * @property {boolean} [numbers]        show move numbers
 */

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

/** The name of a point in renju notation ("h8").
 * @param {Point} p @returns {string} */
export function pointName(p) {
    return LETTERS[p.x] + String(p.y + 1);
}

/** Reads "h8" into a point, or null when it is not one on a board of this size.
 * @param {string} s @param {number} size @returns {Point | null} */
export function parsePoint(s, size) {
    const m = /^([a-z])(\d{1,2})$/.exec(s.trim().toLowerCase());
    if (!m) return null;
    const x = LETTERS.indexOf(m[1]);
    const y = Number(m[2]) - 1;
    if (x < 0 || x >= size || y < 0 || y >= size) return null;
    return { x, y };
}

/** The star points of a board of this size.
 * @param {number} size @returns {Point[]} */
export function starPoints(size) {
    /** @type {Point[]} */
    const pts = [];
    const mid = (size - 1) / 2;
    const d = size >= 13 ? 3 : size >= 9 ? 2 : -1;
    if (d >= 0) {
        for (const x of [d, size - 1 - d]) for (const y of [d, size - 1 - d]) pts.push({ x, y });
        if (size >= 19 && size % 2 === 1) {
            for (const [x, y] of [[d, mid], [size - 1 - d, mid], [mid, d], [mid, size - 1 - d]]) {
                pts.push({ x, y });
            }
        }
    }
    if (size % 2 === 1) pts.push({ x: mid, y: mid });
    return pts;
}

/**
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {Element} [parent]
 * @returns {SVGElement}
 */
function el(tag, attrs, parent) {
    const e = /** @type {SVGElement} */ (document.createElementNS(SVG, tag));
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (parent) parent.appendChild(e);
    return e;
}

export class Board {
    /**
     * @param {SVGSVGElement} svg  an empty <svg> in the page
     * @param {(p: Point) => void} onPlay  called when the player chooses a point
     * @param {(p: Point | null) => void} [onFocus]  called when the ghost/cursor point changes
     */
    constructor(svg, onPlay, onFocus) {
        this.svg = svg;
        this.onPlay = onPlay;
        this.onFocus = onFocus || (() => {});
        /** @type {View} */
        this.view = { size: 15, stones: [], toMove: null };
        /** @type {Point | null} the ghost stone (pointer, first tap, or keyboard cursor) */
        this.ghost = null;
        /** @type {Point | null} a tap waiting for its confirming second tap */
        this.pending = null;
        /** @type {Point} */
        this.cursor = { x: 7, y: 7 };
        this.keyboard = false;
        this.defs();
        this.base = el('g', { class: 'base', 'aria-hidden': 'true' }, svg);
        this.marks = el('g', { class: 'marks', 'aria-hidden': 'true' }, svg);
        this.top = el('g', { class: 'top', 'aria-hidden': 'true' }, svg);
        /** the grid's cells, for screen readers (transparent, under no pointer) */
        this.cells = el('g', { class: 'cells', role: 'rowgroup' }, svg);
        svg.setAttribute('tabindex', '0');
        svg.setAttribute('role', 'grid');
        svg.addEventListener('pointermove', (e) => this.pointerMove(e));
        svg.addEventListener('pointerleave', (e) => {
            if (e.pointerType === 'mouse') this.setGhost(null);
        });
        svg.addEventListener('pointerup', (e) => this.pointerUp(e));
        svg.addEventListener('keydown', (e) => this.key(e));
        svg.addEventListener('focus', () => {
            if (svg.matches(':focus-visible') && this.view.toMove) {
                this.keyboard = true;
                this.setGhost({ ...this.cursor });
                this.drawTop();
            }
        });
        svg.addEventListener('blur', () => {
            this.keyboard = false;
            this.drawTop();
        });
    }

    /** Gradients and the wood grain, defined once. */
    defs() {
        const d = el('defs', {}, this.svg);
        const wood = el('linearGradient', { id: 'wood', x1: 0, y1: 0, x2: 1, y2: 1 }, d);
        el('stop', { offset: '0', 'stop-color': '#e9c07a' }, wood);
        el('stop', { offset: '0.5', 'stop-color': '#dcaa5f' }, wood);
        el('stop', { offset: '1', 'stop-color': '#c98f45' }, wood);
        const grain = el('filter', { id: 'grain', x: 0, y: 0, width: 1, height: 1 }, d);
        el('feTurbulence', { type: 'fractalNoise', baseFrequency: '0.004 0.09', numOctaves: 3, seed: 7 }, grain);
        el('feColorMatrix', {
            values: '0 0 0 0 0.42  0 0 0 0 0.24  0 0 0 0 0.08  0 0 0 0.9 -0.38',
        }, grain);
        el('feComposite', { in2: 'SourceGraphic', operator: 'in' }, grain);
        const black = el('radialGradient', { id: 'stone-black', cx: 0.36, cy: 0.32, r: 0.75 }, d);
        el('stop', { offset: '0', 'stop-color': '#7a7a7a' }, black);
        el('stop', { offset: '0.35', 'stop-color': '#2b2b2b' }, black);
        el('stop', { offset: '1', 'stop-color': '#050505' }, black);
        const white = el('radialGradient', { id: 'stone-white', cx: 0.36, cy: 0.32, r: 0.8 }, d);
        el('stop', { offset: '0', 'stop-color': '#ffffff' }, white);
        el('stop', { offset: '0.6', 'stop-color': '#ecebe6' }, white);
        el('stop', { offset: '1', 'stop-color': '#b9b6ad' }, white);
    }

    /** Pixel centre of a point in SVG units.
     * @param {Point} p @returns {[number, number]} */
    xy(p) {
        return [MARGIN + p.x * CELL, MARGIN + (this.view.size - 1 - p.y) * CELL];
    }

    /** Shows a new state of the game.
     * @param {View} view */
    show(view) {
        const sizeChanged = view.size !== this.view.size || !this.base.firstChild;
        this.view = view;
        if (sizeChanged) {
            const c = Math.floor(view.size / 2);
            this.cursor = { x: c, y: c };
            this.ghost = null;
            this.pending = null;
            this.drawBase();
            this.drawCells();
        }
        if (view.toMove === null) this.pending = null;
        this.drawMarks();
        this.labelCells();
        this.drawTop();
    }

    /** The grid's rows and cells: a row per board row, top (the highest number) first. */
    drawCells() {
        const n = this.view.size;
        this.cells.replaceChildren();
        for (let y = n - 1; y >= 0; y--) {
            const row = el('g', { role: 'row', 'aria-rowindex': n - y }, this.cells);
            for (let x = 0; x < n; x++) {
                const [cx, cy] = this.xy({ x, y });
                el('rect', {
                    id: `cell-${pointName({ x, y })}`, role: 'gridcell', 'aria-colindex': x + 1,
                    x: cx - CELL / 2, y: cy - CELL / 2, width: CELL, height: CELL,
                    fill: 'transparent', 'pointer-events': 'none',
                }, row);
            }
        }
        this.svg.setAttribute('aria-rowcount', String(n));
        this.svg.setAttribute('aria-colcount', String(n));
        this.activeCell();
    }

    /** What each cell says: its name, the stone on it or "empty", the last move, black's
     * forbidden point with its kind, the hint. */
    labelCells() {
        const v = this.view;
        /** @type {Map<string, string[]>} */
        const says = new Map();
        const add = (/** @type {Point} */ p, /** @type {string} */ s) => {
            const k = pointName(p);
            says.set(k, [...(says.get(k) || []), s]);
        };
        const last = v.stones.length ? v.stones[v.stones.length - 1] : null;
        for (const s of v.stones) add(s, t(s.color));
        if (last) add(last, t('lastMoveCell'));
        for (const f of v.forbidden || []) add(f, t('forbiddenCell', f.label));
        if (v.hint) add(v.hint, t('hintCell'));
        for (const c of this.cells.querySelectorAll('[role=gridcell]')) {
            const name = c.id.slice(5);
            c.setAttribute('aria-label', t('cellAnn', name, (says.get(name) || [t('emptyCell')]).join(t('listSep'))));
        }
    }

    /** The grid's active cell is the keyboard cursor. */
    activeCell() {
        this.svg.setAttribute('aria-activedescendant', `cell-${pointName(this.cursor)}`);
    }

    /** The board itself: wood, grid, star points and coordinates. */
    drawBase() {
        const n = this.view.size;
        const full = 2 * MARGIN + (n - 1) * CELL;
        this.svg.setAttribute('viewBox', `0 0 ${full} ${full}`);
        this.base.replaceChildren();
        const g = this.base;
        el('rect', { x: 0, y: 0, width: full, height: full, rx: 10, fill: 'url(#wood)' }, g);
        el('rect', { x: 0, y: 0, width: full, height: full, rx: 10, fill: '#000', filter: 'url(#grain)' }, g);
        el('rect', {
            x: 1, y: 1, width: full - 2, height: full - 2, rx: 9,
            fill: 'none', stroke: '#8a5a24', 'stroke-width': 2, 'stroke-opacity': 0.5,
        }, g);
        const lo = MARGIN;
        const hi = MARGIN + (n - 1) * CELL;
        let path = '';
        for (let i = 0; i < n; i++) {
            const v = MARGIN + i * CELL;
            path += `M${lo} ${v}H${hi}M${v} ${lo}V${hi}`;
        }
        el('path', { d: path, stroke: '#3b2a14', 'stroke-width': 1.3, fill: 'none' }, g);
        el('rect', {
            x: lo, y: lo, width: hi - lo, height: hi - lo,
            fill: 'none', stroke: '#3b2a14', 'stroke-width': 2.4,
        }, g);
        for (const p of starPoints(n)) {
            const [cx, cy] = this.xy(p);
            el('circle', { cx, cy, r: 4.5, fill: '#3b2a14' }, g);
        }
        for (let i = 0; i < n; i++) {
            const [x] = this.xy({ x: i, y: 0 });
            const [, y] = this.xy({ x: 0, y: i });
            for (const ty of [MARGIN * 0.42, full - MARGIN * 0.3]) {
                const t = el('text', { x, y: ty, class: 'coord', 'text-anchor': 'middle' }, g);
                t.textContent = LETTERS[i];
            }
            // the row numbers stand clear of the edge columns' stones (defect 7: "10" ran under
            // a stone on a10 when centred at 0.45 of the margin)
            for (const tx of [MARGIN * 0.24, full - MARGIN * 0.24]) {
                const t = el('text', { x: tx, y: y + 5, class: 'coord', 'text-anchor': 'middle' }, g);
                t.textContent = String(i + 1);
            }
        }
    }

    /**
     * @param {Element} g @param {Point} p @param {'black' | 'white'} color @param {number} [opacity]
     */
    stone(g, p, color, opacity) {
        const [cx, cy] = this.xy(p);
        const r = CELL * 0.46;
        const s = el('g', { class: `stone ${color}`, 'data-point': pointName(p) }, g);
        if (opacity !== undefined) s.setAttribute('opacity', String(opacity));
        el('circle', { cx: cx + 2, cy: cy + 3, r, fill: '#000', 'fill-opacity': 0.28 }, s);
        el('circle', {
            cx, cy, r, fill: `url(#stone-${color})`,
            stroke: color === 'black' ? '#000' : '#9a978e', 'stroke-width': 0.8,
        }, s);
        return s;
    }

    /** Stones, numbers, last move, winning line, forbidden points, hint and analysis. */
    drawMarks() {
        const g = this.marks;
        g.replaceChildren();
        const v = this.view;
        const last = v.stones.length ? v.stones[v.stones.length - 1] : null;
        if (v.winLine && v.winLine.length >= 2) {
            const a = this.xy(v.winLine[0]);
            const b = this.xy(v.winLine[v.winLine.length - 1]);
            el('line', {
                x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: 'winline',
                stroke: '#e0301e', 'stroke-width': 8, 'stroke-linecap': 'round', 'stroke-opacity': 0.85,
            }, g);
        }
        for (const s of v.stones) {
            this.stone(g, s, s.color);
            const [cx, cy] = this.xy(s);
            const ink = s.color === 'black' ? '#f4f1ea' : '#1a1a1a';
            if (v.numbers) {
                const t = el('text', {
                    x: cx, y: cy + 5.5, class: 'num', 'text-anchor': 'middle',
                    fill: s === last ? '#e0301e' : ink,
                }, g);
                t.textContent = String(s.n);
            } else if (s === last) {
                el('circle', { cx, cy, r: 6, fill: '#e0301e', class: 'last' }, g);
            }
        }
        if (v.winLine) {
            for (const p of v.winLine) {
                const [cx, cy] = this.xy(p);
                el('circle', { cx, cy, r: CELL * 0.5, fill: 'none', stroke: '#e0301e', 'stroke-width': 3, class: 'winring' }, g);
            }
        }
        for (const f of v.forbidden || []) {
            const [cx, cy] = this.xy(f);
            const m = el('g', { class: 'forbidden', 'data-point': pointName(f), 'data-kind': f.kind }, g);
            el('circle', { cx, cy, r: CELL * 0.4, fill: 'transparent' }, m);
            const k = 7;
            el('path', {
                d: `M${cx - k} ${cy - k}L${cx + k} ${cy + k}M${cx + k} ${cy - k}L${cx - k} ${cy + k}`,
                stroke: '#c0160b', 'stroke-width': 3.2, 'stroke-linecap': 'round',
            }, m);
            const title = el('title', {}, m);
            title.textContent = `${pointName(f)}: ${f.label}`;
        }
        (v.lines || []).forEach((line, i) => this.drawLine(g, line, i));
        if (v.hint) {
            const [cx, cy] = this.xy(v.hint);
            const h = el('g', { class: 'hint', 'data-point': pointName(v.hint) }, g);
            el('circle', {
                cx, cy, r: CELL * 0.42, fill: '#2f7de1', 'fill-opacity': 0.25,
                stroke: '#2f7de1', 'stroke-width': 3, 'stroke-dasharray': '6 4',
            }, h);
            const t = el('text', { x: cx, y: cy + 7, class: 'num hintq', 'text-anchor': 'middle' }, h);
            t.textContent = '?';
        }
    }

    /** One analysis line: the principal variation as numbered stones, the other lines as a
     * ranked mark on their first move.
     * @param {Element} g @param {Line} line @param {number} rank */
    drawLine(g, line, rank) {
        const colors = ['#1d6fd6', '#1c9a4a', '#c77700', '#8e44ad', '#b03a2e'];
        const color = colors[rank % colors.length];
        const a = el('g', { class: 'analysis', 'data-rank': rank + 1 }, g);
        const first = line.moves[0];
        if (!first) return;
        if (rank === 0) {
            const occupied = new Set(this.view.stones.map((s) => pointName(s)));
            let side = this.view.side || 'black';
            line.moves.slice(0, 10).forEach((p, i) => {
                if (!occupied.has(pointName(p))) {
                    this.stone(a, p, side, 0.55);
                    const [cx, cy] = this.xy(p);
                    const t = el('text', {
                        x: cx, y: cy + 5.5, class: 'num', 'text-anchor': 'middle',
                        fill: side === 'black' ? '#fff' : '#000',
                    }, a);
                    t.textContent = String(i + 1);
                    occupied.add(pointName(p));
                }
                side = side === 'black' ? 'white' : 'black';
            });
        }
        const [cx, cy] = this.xy(first);
        el('circle', {
            cx, cy, r: CELL * 0.47, fill: 'none', stroke: color, 'stroke-width': rank === 0 ? 4 : 3,
        }, a);
        // the badge stands in the cell's corner, clear of every stone, its own point's included
        // (defect 6: inside the stone it covered a numbered stone of the first line)
        const bx = cx + CELL * 0.47;
        const by = cy - CELL * 0.47;
        el('circle', { cx: bx, cy: by, r: 8, fill: color, class: 'badge' }, a);
        const t = el('text', { x: bx, y: by + 4, class: 'rank', 'text-anchor': 'middle' }, a);
        t.textContent = String(rank + 1);
        const title = el('title', {}, a);
        title.textContent = line.label;
    }

    /** The ghost stone and the keyboard cursor. */
    drawTop() {
        const g = this.top;
        g.replaceChildren();
        const v = this.view;
        const p = this.ghost;
        const foul = p && (v.forbidden || []).some((f) => f.x === p.x && f.y === p.y);
        if (p && foul) {
            const [cx, cy] = this.xy(p);
            el('circle', {
                cx, cy, r: CELL * 0.46, fill: '#c0160b', 'fill-opacity': 0.15,
                stroke: '#c0160b', 'stroke-width': 2.5, class: 'ghost-forbidden',
            }, g);
        } else if (p && v.toMove && !this.occupied(p)) {
            const s = this.stone(g, p, v.toMove, this.pending ? 0.7 : 0.45);
            s.classList.add('ghost');
            if (this.pending) {
                const [cx, cy] = this.xy(p);
                el('circle', {
                    cx, cy, r: CELL * 0.56, fill: 'none', stroke: '#e0301e',
                    'stroke-width': 2.5, 'stroke-dasharray': '5 4', class: 'pending',
                }, g);
            }
        }
        if (this.keyboard) {
            const [cx, cy] = this.xy(this.cursor);
            const h = CELL / 2;
            el('rect', {
                x: cx - h, y: cy - h, width: CELL, height: CELL, rx: 6, class: 'cursor',
                fill: 'none', stroke: '#1d6fd6', 'stroke-width': 3,
            }, g);
        }
    }

    /** @param {Point} p @returns {boolean} */
    occupied(p) {
        return this.view.stones.some((s) => s.x === p.x && s.y === p.y);
    }

    /** The point under a pointer event, or null off the grid.
     * @param {PointerEvent} e @returns {Point | null} */
    pointAt(e) {
        const m = this.svg.getScreenCTM();
        if (!m) return null;
        const pt = new DOMPoint(e.clientX, e.clientY).matrixTransform(m.inverse());
        const n = this.view.size;
        const x = Math.round((pt.x - MARGIN) / CELL);
        const row = Math.round((pt.y - MARGIN) / CELL);
        if (x < 0 || x >= n || row < 0 || row >= n) return null;
        return { x, y: n - 1 - row };
    }

    /** @param {Point | null} p */
    setGhost(p) {
        const same = (p && this.ghost && p.x === this.ghost.x && p.y === this.ghost.y) || p === this.ghost;
        this.ghost = p;
        if (!same) {
            this.drawTop();
            this.onFocus(p);
        }
    }

    /** @param {PointerEvent} e */
    pointerMove(e) {
        if (e.pointerType !== 'mouse') return;
        this.setGhost(this.pointAt(e));
    }

    /** @param {PointerEvent} e */
    pointerUp(e) {
        if (e.button !== 0 && e.pointerType === 'mouse') return;
        const p = this.pointAt(e);
        this.keyboard = false;
        if (!p || !this.view.toMove) return;
        if (e.pointerType === 'mouse') {
            this.choose(p);
            return;
        }
        // touch and pen: the first tap shows the stone, a second tap on it plays it
        if (this.pending && this.pending.x === p.x && this.pending.y === p.y) {
            this.choose(p);
        } else {
            this.pending = p;
            this.ghost = null;
            this.setGhost(p);
            this.drawTop();
        }
    }

    /** @param {Point} p */
    choose(p) {
        this.pending = null;
        this.ghost = null;
        this.drawTop();
        this.onPlay(p);
    }

    /** @param {KeyboardEvent} e */
    key(e) {
        const n = this.view.size;
        /** @type {Record<string, [number, number]>} */
        const moves = {
            ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1],
            Home: [-n, 0], End: [n, 0], PageUp: [0, n], PageDown: [0, -n],
        };
        const d = moves[e.key];
        if (d) {
            e.preventDefault();
            if (this.keyboard) {
                this.cursor = {
                    x: Math.min(n - 1, Math.max(0, this.cursor.x + d[0])),
                    y: Math.min(n - 1, Math.max(0, this.cursor.y + d[1])),
                };
            }
            this.keyboard = true;
            this.pending = null;
            this.activeCell();
            this.setGhost({ ...this.cursor });
            this.drawTop();
        } else if ((e.key === 'Enter' || e.key === ' ') && this.view.toMove) {
            // Enter plays at the cursor, also the first one after a click gave the board its
            // focus (defect 8: it used to only show the cursor)
            e.preventDefault();
            this.choose({ ...this.cursor });
            this.keyboard = true;
            this.drawTop();
        }
    }
}
