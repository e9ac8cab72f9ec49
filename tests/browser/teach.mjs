// teach.mjs: the teaching features of the web game in a real browser (Debian's chromium,
// Playwright) against the real `gomoku serve` ($GMK_BIN): the evaluation bar and the readable
// evaluation of an analysis; a game review started from the page (progress, the win-rate graph
// with its turning points, the labelled move list, the better move and its line on the board,
// ← and → through the game, "try again from here"), cancelled; on a desktop in English and on a
// phone in Chinese. Screenshots of each screen go to build/screenshots/ (teach-*.png).
// Usage: node teach.mjs OUTDIR (GMK_BIN set). Prints "ok"/"not ok" per test and a summary line.

import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { checkScreenshot, launch, pointXY, startServer, status, stones, waitStones } from './lib.mjs';

const BIN = process.env.GMK_BIN || '';
const SHOTS = path.resolve(process.argv[2] || 'build/screenshots');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gmk-teach-'));
fs.mkdirSync(SHOTS, { recursive: true });
const T = 60000;

// white's i8 leaves black's four open at h12; black's j11 misses the five there
const MISSED = 'h8h7h9i9h10i10h11i8j11h12';
const LONG = 'h9h7g6g7i7i6j5f8j6h8j8j7h6g5i9g9h10k7i10g8e8f9e10f10g11f12f11e11d12f7f6h11k10e7d7j10k9l10d6e6l9j9i11i8i12i13j11h13m8';

const server = await startServer(BIN, path.join(tmp, 'games.db'));
const browser = await launch();
/** @type {string[]} */
const problems = [];

/** @param {import('playwright-core').BrowserContextOptions} [opts] */
async function open(opts) {
    const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 }, locale: 'en-US', ...opts });
    const page = await ctx.newPage();
    page.setDefaultTimeout(T);
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('console', (m) => {
        if (m.type() === 'error' && !/Failed to load resource/.test(m.text())) problems.push(`console: ${m.text()}`);
    });
    await page.goto(server.url);
    await page.waitForSelector('body[data-ready]');
    return { ctx, page };
}

/** Makes this browser's game a two-person game with these moves, and shows it.
 * @param {import('playwright-core').Page} page @param {string} moves */
async function gameWith(page, moves) {
    const id = await page.evaluate(async (moves) => {
        const r = await fetch('/api/games', {
            method: 'POST', headers: { 'Content-Type': 'application/json' }, credentials: 'same-origin',
            body: JSON.stringify({ mode: 'hvh', moves }),
        });
        const s = await r.json();
        localStorage.setItem('gmk.game', String(s.id));
        return s.id;
    }, moves);
    await page.reload();
    await page.waitForSelector('body[data-ready]');
    await waitStones(page, moves.match(/[a-z]\d+/g)?.length || 0);
    return id;
}

let passed = 0;
let failed = 0;
/** @param {string} name @param {() => Promise<void>} fn */
async function test(name, fn) {
    if (process.env.ONLY && !name.includes(process.env.ONLY)) return; // to run one test by hand
    const start = Date.now();
    problems.length = 0;
    try {
        await fn();
        assert.deepEqual(problems, [], 'no script errors or CSP violations');
        passed++;
        console.log(`ok - ${name} (${((Date.now() - start) / 1000).toFixed(1)} s)`);
    } catch (e) {
        failed++;
        console.log(`not ok - ${name}: ${e instanceof Error ? e.message : e}`);
    }
}

await test('the evaluation bar and the analysis say the win rate, not a raw score', async () => {
    const { ctx, page } = await open();
    await gameWith(page, 'h8i9h9i10');
    assert.equal(await page.isVisible('#evalbar'), false, 'no bar before anything is known');
    await page.click('#analyse');
    await page.waitForSelector('#analysis-out .an-eval');
    const words = (await page.textContent('#analysis-out .an-eval')) || '';
    assert.match(words, /^(Black \d+%|(Black|White) wins in \d+) \(/, words);
    await page.waitForSelector('#evalbar:not([hidden])');
    const now = Number(await page.getAttribute('#evalbar', 'aria-valuenow'));
    assert.ok(now >= 0 && now <= 100);
    assert.equal(await page.getAttribute('#evalbar', 'aria-valuetext'), words.replace(/ \(.*$/, ''));
    await checkScreenshot(ctx, page, path.join(SHOTS, 'teach-desktop-evalbar.png'));
    await ctx.close();
});

await test('a review: progress, graph with turning points, labels, the better line, ← →, try again', async () => {
    const { ctx, page } = await open();
    const id = await gameWith(page, MISSED);
    await page.click('#review-start');
    await page.waitForSelector('#review-graph', { timeout: T });
    assert.match((await page.textContent('#info')) || '', new RegExp(`Review of game #${id}`));
    assert.equal(await page.locator('#review-moves button').count(), 10);
    const turning = (await page.getAttribute('#review-graph', 'aria-label')) || '';
    assert.match(turning, /8\. i8 \(blunder\)/);
    assert.match(turning, /9\. j11 \(missed win\)/);
    assert.equal(await page.locator('#review-graph .g-turn').count(), 2, 'the two turning points are marked');
    // the engine's estimates decide the other labels; the move into a proved loss is a blunder
    assert.match((await page.textContent('.review-summary')) || '', /White: \d+ inaccuracies, \d+ mistakes, 1 blunders/);
    // the 9th move: the position before it, what was missed, the five drawn on the board
    const ninth = page.locator('#review-moves li:nth-child(9) button');
    assert.match((await ninth.getAttribute('aria-label')) || '', /j11: missed win/);
    assert.match((await ninth.textContent()) || '', /✗/, 'a mark besides the colour');
    await ninth.click();
    await waitStones(page, 8);
    const now = (await page.textContent('#review-now')) || '';
    assert.match(now, /9\. Black j11: missed win/);
    assert.match(now, /Better: h12/);
    assert.ok(await page.locator('#board .analysis').count() >= 1, 'the better line is drawn');
    assert.equal(await page.getAttribute('#evalbar', 'aria-valuetext'), 'Black wins in 1');
    await page.screenshot({ path: path.join(SHOTS, 'teach-desktop-review.png'), fullPage: true });
    await checkScreenshot(ctx, page, path.join(SHOTS, 'teach-desktop-review-board.png'));
    // ← and → step through it
    await page.locator('.review-summary').click();
    await page.keyboard.press('ArrowLeft');
    await waitStones(page, 7);
    assert.match((await page.textContent('#review-now')) || '', /8\. White i8: blunder/);
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await waitStones(page, 9);
    // try again from the position before the missed win
    await page.keyboard.press('ArrowLeft');
    await waitStones(page, 8);
    await page.click('#review-retry');
    await page.waitForSelector('#setup-dialog[open]');
    await page.check('input[name=mode][value=hvh]');
    await page.click('#setup-start');
    await page.waitForSelector('#game-controls:not([hidden])');
    await waitStones(page, 8);
    await ctx.close();
});

await test('the coach says why, in words, and forgets it when the position changes', async () => {
    const { ctx, page } = await open();
    await gameWith(page, 'h8h7h9i9h10i10h11i8');
    await page.click('#coach-why');
    await page.waitForSelector('#coach-out li');
    const text = (await page.textContent('#coach-out')) || '';
    assert.match(text, /After White's i8:/);
    assert.match(text, /Black wins by fours \(VCF\): h12\./);
    assert.match(text, /White at h12 instead would have stopped it\./);
    await checkScreenshot(ctx, page, path.join(SHOTS, 'teach-desktop-coach.png'));
    await page.click('#undo');
    await waitStones(page, 7);
    assert.equal(await page.locator('#coach-out li').count(), 0, 'the old sentences are gone');
    await ctx.close();
});

await test('renju on a phone in Chinese: why a point is forbidden', async () => {
    const { ctx, page } = await open({ viewport: { width: 390, height: 844 }, locale: 'zh-CN', isMobile: true, hasTouch: true });
    const id = await page.evaluate(async () => {
        const r = await fetch('/api/games', {
            method: 'POST', headers: { 'Content-Type': 'application/json' }, credentials: 'same-origin',
            body: JSON.stringify({ mode: 'hvh', rule: 'renju', moves: 'i8a1j8a2h9a3h10a5' }),
        });
        const s = await r.json();
        localStorage.setItem('gmk.game', String(s.id));
        return s.id;
    });
    assert.ok(id > 0);
    await page.reload();
    await page.waitForSelector('body[data-ready]');
    await waitStones(page, 8);
    await page.click('#coach-why');
    await page.waitForSelector('#coach-out li');
    const text = (await page.textContent('#coach-out')) || '';
    assert.match(text, /h8 是黑棋禁手：三三/);
    assert.match(text, /与 h9 h10：成活三/);
    await page.locator('#coach').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, 'teach-phone-zh-coach.png') });
    await ctx.close();
});

/** Clicks a board point. @param {import('playwright-core').Page} page @param {string} name */
async function clickPoint(page, name) {
    const p = await pointXY(page, name);
    await page.mouse.click(p.x, p.y);
}

/** Asks for the hint and plays it. @param {import('playwright-core').Page} page */
async function playHint(page) {
    await page.click('#pz-hint');
    await page.waitForSelector('#board .hint');
    const point = (await page.getAttribute('#board .hint', 'data-point')) || '';
    const before = (await stones(page)).length;
    await clickPoint(page, point);
    await page.waitForFunction((n) => document.querySelectorAll('#board .marks > .stone').length > n ||
        /Solved|Not this one/.test(document.querySelector('#status')?.textContent || ''), before);
    return point;
}

await test('puzzles: the only defence, a win by fours and one by threes and fours, with hints and the opponent answering; a wrong move', async () => {
    const { ctx, page } = await open();
    await page.click('#open-puzzles');
    await page.waitForSelector('#puzzle-controls:not([hidden])');
    assert.equal(await page.isVisible('#analysis'), false, 'no analysis while solving');
    assert.equal(await page.isVisible('#coach'), false, 'no coach while solving');
    await page.selectOption('#pz-kind', 'defence');
    await page.click('#pz-next');
    await page.waitForFunction(() => /find the only defence/.test(document.querySelector('#status')?.textContent || ''));
    await checkScreenshot(ctx, page, path.join(SHOTS, 'teach-desktop-puzzle.png'));
    await playHint(page);
    await page.waitForFunction(() => /Solved!/.test(document.querySelector('#status')?.textContent || ''));
    await page.selectOption('#pz-kind', 'fours');
    await page.click('#pz-next');
    await page.waitForFunction(() => /win by fours/.test(document.querySelector('#status')?.textContent || ''));
    const start = (await stones(page)).length;
    for (let i = 0; i < 12; i++) {
        if (/Solved!/.test((await page.textContent('#status')) || '')) break;
        await playHint(page);
    }
    assert.match((await page.textContent('#status')) || '', /Solved!/);
    assert.ok((await stones(page)).length >= start + 3, 'the player\'s fours and the opponent\'s blocks');
    // a win by threes and fours, along the hints: the opponent answers each threat
    await page.selectOption('#pz-kind', 'threes');
    await page.click('#pz-next');
    await page.waitForFunction(() => /win by threes and fours/.test(document.querySelector('#status')?.textContent || ''));
    await checkScreenshot(ctx, page, path.join(SHOTS, 'teach-desktop-puzzle-threes.png'));
    const before = (await stones(page)).length;
    for (let i = 0; i < 16; i++) {
        if (/Solved!/.test((await page.textContent('#status')) || '')) break;
        await playHint(page);
    }
    assert.match((await page.textContent('#status')) || '', /Solved!/);
    assert.ok((await stones(page)).length >= before + 3, 'the player\'s threats and the opponent\'s answers');
    // a wrong move: the hint says the answer, another point is played
    await page.selectOption('#pz-kind', 'defence');
    await page.click('#pz-next');
    await page.waitForFunction(() => /find the only defence/.test(document.querySelector('#status')?.textContent || ''));
    await page.click('#pz-hint');
    await page.waitForSelector('#board .hint');
    const answer = (await page.getAttribute('#board .hint', 'data-point')) || '';
    const taken = new Set((await stones(page)).map((s) => s.point));
    const other = ['a1', 'o15', 'a15', 'o1', 'b2'].find((p) => p !== answer && !taken.has(p)) || 'c3';
    await clickPoint(page, other);
    await page.waitForFunction(() => /Not this one/.test(document.querySelector('#status')?.textContent || ''));
    assert.match((await page.textContent('#status')) || '', new RegExp(`the move was ${answer}`));
    await page.click('#pz-back');
    await page.waitForSelector('#game-controls:not([hidden])');
    await ctx.close();
});

await test('the puzzle of the day on a phone in Chinese', async () => {
    const { ctx, page } = await open({ viewport: { width: 390, height: 844 }, locale: 'zh-CN', isMobile: true, hasTouch: true });
    await page.click('#open-puzzles');
    await page.waitForSelector('#puzzle-controls:not([hidden])');
    await page.click('#pz-daily');
    await page.waitForFunction(() => /每日一题/.test(document.querySelector('#info')?.textContent || ''));
    assert.match((await page.textContent('#status')) || '', /先走/);
    await checkScreenshot(ctx, page, path.join(SHOTS, 'teach-phone-zh-puzzle.png'));
    await ctx.close();
});

const AXE = fs.readFileSync(new URL('./node_modules/axe-core/axe.min.js', import.meta.url), 'utf8');

/** axe-core's serious and critical violations on the page as it is (WCAG 2.1 A and AA).
 * @param {import('playwright-core').Page} page @returns {Promise<string[]>} */
async function axeProblems(page) {
    await page.evaluate(AXE);
    const r = await page.evaluate(async () => {
        // @ts-ignore: axe is the script evaluated above
        const res = await window.axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
        return res.violations.map((/** @type {any} */ v) => ({ id: v.id, impact: v.impact, n: v.nodes.length,
            where: v.nodes.slice(0, 2).map((/** @type {any} */ x) => x.target.join(' ')).join(', ') }));
    });
    return r.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}, ${v.n}): ${v.where}`);
}

await test('axe-core: no serious or critical violation on the game, review, coach, puzzles, games and online pages', async () => {
    for (const locale of ['en-US', 'zh-CN']) {
        const { ctx, page } = await open({ locale, bypassCSP: true });
        /** @type {string[]} */
        const found = [];
        const look = async (/** @type {string} */ what) => {
            for (const p of await axeProblems(page)) found.push(`${locale} ${what}: ${p}`);
        };
        await gameWith(page, MISSED);
        await look('game');
        await page.click('#coach-why');
        await page.waitForSelector('#coach-out li');
        await look('coach');
        await page.click('#review-start');
        await page.waitForSelector('#review-graph');
        await look('review');
        await page.click('#open-puzzles');
        await page.waitForSelector('#puzzle-controls:not([hidden])');
        await page.waitForFunction(() => (document.querySelector('#status')?.textContent || '').length > 0);
        await look('puzzle');
        await page.click('#pz-back');
        await page.click('#open-games');
        await page.waitForSelector('#games-list li');
        await look('games dialog');
        await page.keyboard.press('Escape');
        await page.goto(`${server.url}online.html`);
        await page.waitForSelector('body[data-ready]');
        await look('online');
        assert.deepEqual(found, []);
        await ctx.close();
    }
});

/** The board's active cell (the keyboard cursor) and what a screen reader hears of it.
 * @param {import('playwright-core').Page} page */
async function activeCell(page) {
    return page.evaluate(() => {
        const id = document.querySelector('#board')?.getAttribute('aria-activedescendant') || '';
        const cell = document.getElementById(id);
        return { id, role: cell?.getAttribute('role'), label: cell?.getAttribute('aria-label') };
    });
}

await test('defect 8: the first Enter on the board plays; a screen reader hears the cursor and each move', async () => {
    const { ctx, page } = await open();
    await gameWith(page, 'h9');
    await page.focus('#board'); // as a click gives it: no arrow key yet
    await page.keyboard.press('Enter');
    await waitStones(page, 2);
    const placed = (await stones(page)).map((x) => x.point);
    assert.ok(placed.includes('h8'), `the first Enter played at the centre: ${placed}`);
    await page.waitForFunction(() => document.querySelector('#announce')?.textContent === 'White h8');
    await page.keyboard.press('ArrowUp');
    assert.deepEqual(await activeCell(page), { id: 'cell-h9', role: 'gridcell', label: 'h9: Black' });
    await page.keyboard.press('ArrowUp');
    assert.deepEqual(await activeCell(page), { id: 'cell-h10', role: 'gridcell', label: 'h10: empty' });
    await ctx.close();
});

await test('the board is an ARIA grid: rows of labelled cells, walked with the keys, in both languages', async () => {
    const { ctx, page } = await open();
    // renju, black to move with a forbidden point (a double-three at j9 by h8 i8 / j10 j11)
    const id = await page.evaluate(async () => {
        const r = await fetch('/api/games', {
            method: 'POST', headers: { 'Content-Type': 'application/json' }, credentials: 'same-origin',
            body: JSON.stringify({ mode: 'hvh', rule: 'renju', moves: 'h9a1i9a3j11a5j12a7' }),
        });
        const s = await r.json();
        localStorage.setItem('gmk.game', String(s.id));
        return s;
    });
    assert.ok(id.forbidden.length > 0, `a forbidden point to label: ${JSON.stringify(id.forbidden)}`);
    const foul = id.forbidden[0];
    await page.reload();
    await page.waitForSelector('body[data-ready]');
    await waitStones(page, 8);
    const grid = await page.evaluate(() => {
        const b = document.querySelector('#board');
        const rows = [...(b?.querySelectorAll('[role=row]') || [])];
        return {
            role: b?.getAttribute('role'), rows: rows.length,
            cells: rows.map((r) => r.querySelectorAll('[role=gridcell]').length),
            firstRow: [...rows[0].querySelectorAll('[role=gridcell]')].slice(0, 2).map((c) => c.getAttribute('aria-label')),
            hidden: [...(b?.querySelectorAll(':scope > g:not(.cells)') || [])].every((g) => g.getAttribute('aria-hidden') === 'true'),
        };
    });
    assert.equal(grid.role, 'grid');
    assert.equal(grid.rows, 15);
    assert.ok(grid.cells.every((n) => n === 15), 'fifteen cells a row');
    assert.deepEqual(grid.firstRow, ['a15: empty', 'b15: empty'], 'the top row first, from a');
    assert.ok(grid.hidden, 'the drawing is hidden from screen readers');
    const label = (name) => page.getAttribute(`#cell-${name}`, 'aria-label');
    assert.equal(await label('a7'), 'a7: White, last move');
    assert.equal(await label('h9'), 'h9: Black');
    assert.match((await label(foul.point)) || '', new RegExp(`^${foul.point}: forbidden for Black \\((double-three|double-four|overline)\\)$`));
    // the keys: arrows, Home/End along the row, PageUp/PageDown along the column
    await page.focus('#board');
    assert.equal((await activeCell(page)).id, 'cell-h8', 'the cursor starts at the centre');
    await page.keyboard.press('ArrowLeft');
    assert.equal((await activeCell(page)).id, 'cell-g8');
    await page.keyboard.press('Home');
    assert.equal((await activeCell(page)).id, 'cell-a8');
    await page.keyboard.press('End');
    assert.equal((await activeCell(page)).id, 'cell-o8');
    await page.keyboard.press('PageUp');
    assert.equal((await activeCell(page)).id, 'cell-o15');
    await page.keyboard.press('PageDown');
    assert.equal((await activeCell(page)).id, 'cell-o1');
    assert.ok(await page.locator('#board .cursor').count() === 1, 'a visible cursor');
    await page.keyboard.press('Enter');
    await waitStones(page, 9);
    assert.equal(await label('o1'), 'o1: Black, last move');
    // in Chinese
    await page.selectOption('#lang', 'zh');
    await page.waitForFunction(() => document.querySelector('#cell-o1')?.getAttribute('aria-label') === 'o1：黑方，最后一手');
    assert.equal(await label('h8'), 'h8：空');
    await ctx.close();
});

await test('defect 6: the candidates\' badges do not overlap any stone, the first line\'s numbered ones included', async () => {
    const { ctx, page } = await open();
    await gameWith(page, 'h8i9h9i10g8');
    await page.click('#analyse');
    await page.waitForSelector('#analysis-out .an-eval');
    await page.waitForSelector('#board .analysis .badge');
    const overlaps = await page.evaluate(() => {
        const circle = (/** @type {Element} */ c) => ({ x: Number(c.getAttribute('cx')), y: Number(c.getAttribute('cy')), r: Number(c.getAttribute('r')) });
        // each stone's face (its second circle; the first is its shadow)
        const stones = [...document.querySelectorAll('#board .stone')].map((s) => circle(s.querySelectorAll('circle')[1]));
        const badges = [...document.querySelectorAll('#board .analysis .badge')].map(circle);
        /** @type {string[]} */
        const out = [];
        for (const b of badges) for (const s of stones) {
            const d = Math.hypot(b.x - s.x, b.y - s.y);
            if (d < b.r + s.r) out.push(`badge at ${b.x},${b.y} over stone at ${s.x},${s.y}`);
        }
        return { out, badges: badges.length, stones: stones.length };
    });
    assert.ok(overlaps.badges >= 2 && overlaps.stones > 5, JSON.stringify(overlaps));
    assert.deepEqual(overlaps.out, []);
    await checkScreenshot(ctx, page, path.join(SHOTS, 'teach-desktop-analysis-badges.png'));
    await ctx.close();
});

await test('defect 13: a 22x22 board on a phone can be zoomed, and played zoomed', async () => {
    const { ctx, page } = await open({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const viewport = (await page.getAttribute('meta[name=viewport]', 'content')) || '';
    assert.doesNotMatch(viewport, /user-scalable=no|maximum-scale=1\b/, 'pinch zoom is allowed');
    await page.evaluate(async () => {
        const r = await fetch('/api/games', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ mode: 'hvh', size: 22, moves: 'k11' }) });
        localStorage.setItem('gmk.game', String((await r.json()).id));
    });
    await page.reload();
    await page.waitForSelector('body[data-ready]');
    await waitStones(page, 1);
    const cellPx = () => page.evaluate(() => {
        const svg = /** @type {SVGSVGElement} */ (document.querySelector('#board'));
        return svg.getBoundingClientRect().width * 40 / svg.viewBox.baseVal.width;
    });
    const before = await cellPx();
    assert.ok(before < 20, `small cells before (${before.toFixed(1)} px)`);
    await page.waitForSelector('#zoom:not([hidden])');
    await page.click('#zoom');
    const after = await cellPx();
    assert.ok(after >= 28, `large cells zoomed (${after.toFixed(1)} px)`);
    assert.equal(await page.getAttribute('#zoom', 'aria-pressed'), 'true');
    const scroll = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth - window.innerWidth,
        frame: (document.querySelector('#board-wrap')?.scrollWidth || 0) - (document.querySelector('#board-wrap')?.clientWidth || 0),
    }));
    assert.ok(scroll.page <= 0, `the page does not scroll sideways (${scroll.page})`);
    assert.ok(scroll.frame > 0, 'the board\'s frame scrolls');
    // a tap, then a second tap on the same point, plays there while zoomed
    await page.locator('#board').scrollIntoViewIfNeeded();
    const at = await pointXY(page, 'l12');
    await page.evaluate(({ x }) => {
        const w = document.querySelector('#board-wrap');
        if (w) w.scrollLeft += x - window.innerWidth / 2;
    }, at);
    const p = await pointXY(page, 'l12');
    await page.touchscreen.tap(p.x, p.y);
    await page.touchscreen.tap(p.x, p.y);
    await waitStones(page, 2);
    assert.ok((await stones(page)).some((s) => s.point === 'l12'), 'played where tapped');
    await page.screenshot({ path: path.join(SHOTS, 'teach-phone-zoomed.png') });
    await page.click('#zoom');
    assert.ok(Math.abs((await cellPx()) - before) < 1, 'zoom out fits the board again');
    await ctx.close();
});

await test('defect 9: the games list and scoreboard are the visitor\'s own, with online games marked public', async () => {
    // another browser plays and finishes a game against... itself (two people), and one hvc move
    const other = await open();
    await gameWith(other.page, 'h8a1i8a2j8a3k8a4l8');
    const theirs = await other.page.evaluate(() => Number(localStorage.getItem('gmk.game')));
    await other.ctx.close();
    const { ctx, page } = await open();
    await gameWith(page, 'h8h9');
    const mineId = await page.evaluate(() => Number(localStorage.getItem('gmk.game')));
    await page.click('#open-games');
    await page.waitForSelector('#games-list li[data-id]');
    const ids = await page.$$eval('#games-list li', (els) => els.map((e) => Number(e.getAttribute('data-id'))));
    assert.ok(ids.includes(mineId), 'my game is listed');
    assert.ok(!ids.includes(theirs), 'another browser\'s game is not');
    const text = (await page.textContent('#games-list')) || '';
    assert.doesNotMatch(text, new RegExp(`#${theirs} `));
    // the scoreboard counts my games only: the other browser's finished game is not in it
    await page.waitForSelector('#scoreboard table, #scoreboard p');
    const board = (await page.textContent('#scoreboard')) || '';
    assert.doesNotMatch(board, /two humans/, `not the other browser's two-person game: ${board}`);
    await ctx.close();
});

await test('every text of the game page is translated: no key shown as it is, in either language', async () => {
    for (const locale of ['en-US', 'zh-CN']) {
        const { ctx, page } = await open({ locale });
        const raw = await page.$$eval('[data-i18n]', (els) => els
            .filter((e) => e.textContent === /** @type {HTMLElement} */ (e).dataset.i18n)
            .map((e) => /** @type {HTMLElement} */ (e).dataset.i18n));
        assert.deepEqual(raw, [], `${locale}: keys shown instead of their text`);
        await ctx.close();
    }
});

await test('defect 10: a first visit stores no game until the first move', async () => {
    const { ctx, page } = await open();
    const mine = () => page.evaluate(async () => (await (await fetch('/api/games?limit=100')).json()).games.filter((/** @type {any} */ g) => g.owner));
    assert.match(await status(page), /Black to move \(you\)/, 'the board is ready to play');
    assert.deepEqual(await mine(), [], 'nothing stored by the visit');
    await page.reload();
    await page.waitForSelector('body[data-ready]');
    assert.deepEqual(await mine(), [], 'nor by a second one');
    await clickPoint(page, 'h8');
    await waitStones(page, 2); // the computer answers
    const games = await mine();
    assert.equal(games.length, 1, 'the first move stored the game');
    assert.ok(games[0].moves >= 1);
    await ctx.close();
});

await test('defect 1: "Looking for a hint…" goes when the hint comes', async () => {
    const { ctx, page } = await open();
    await gameWith(page, 'h8h7h9i9h10i10h11');
    await page.click('#hint');
    await page.waitForFunction(() => /Hint: h12/.test(document.querySelector('#status')?.textContent || ''));
    await page.waitForTimeout(300);
    assert.equal(((await page.textContent('#message')) || '').includes('Looking for a hint'), false);
    await ctx.close();
});

await test('defect 2: back from a replay, the share box no longer shows the replay\'s link', async () => {
    const { ctx, page } = await open();
    await gameWith(page, 'h8');
    await page.goto(`${server.url}#rule=freestyle&size=15&moves=h8i9h9`);
    await page.reload();
    await page.waitForSelector('body[data-ready]');
    await waitStones(page, 3);
    await page.click('#share');
    assert.match(await page.inputValue('#share-url'), /moves=h8i9h9/);
    await page.click('#back-to-game');
    await waitStones(page, 1);
    assert.equal(await page.isVisible('#share-url'), false);
    await ctx.close();
});

await test('the games list resumes this browser\'s unfinished game, and reviews any game', async () => {
    const { ctx, page } = await open();
    const first = await gameWith(page, 'h8h9h10');
    await gameWith(page, 'a1');
    await page.click('#open-games');
    await page.waitForSelector(`#games-list li[data-id="${first}"] .resume`);
    await page.click(`#games-list li[data-id="${first}"] .resume`);
    await waitStones(page, 3);
    assert.match((await page.textContent('#info')) || '', new RegExp(`#${first}`));
    await page.waitForSelector('#game-controls:not([hidden])');
    await page.click('#undo'); // it is a live game again: its moves can be taken back
    await waitStones(page, 2);
    await page.click('#open-games');
    await page.waitForSelector(`#games-list li[data-id="${first}"] .review`);
    await page.click(`#games-list li[data-id="${first}"] .review`);
    await page.waitForSelector('#review-graph');
    await ctx.close();
});

await test('the numbered move list: a click goes to that move; ← → in the replay', async () => {
    const { ctx, page } = await open();
    await gameWith(page, 'h8i9h9i10h10');
    assert.equal(await page.locator('#move-list li').count(), 5);
    assert.equal(await page.getAttribute('#move-list li:nth-child(5) button', 'aria-current'), 'step');
    await page.click('#move-list li:nth-child(2) button');
    await waitStones(page, 2);
    await page.waitForSelector('#replay-controls:not([hidden])');
    assert.equal(await page.getAttribute('#move-list li:nth-child(2) button', 'aria-label'), '2. White i9');
    await page.keyboard.press('ArrowRight');
    await waitStones(page, 3);
    await page.click('#back-to-game');
    await waitStones(page, 5);
    await ctx.close();
});

await test('defect 7: stones on the edge columns leave the row numbers readable', async () => {
    const { ctx, page } = await open();
    await gameWith(page, 'a10o12');
    const gaps = await page.evaluate(() => {
        /** @param {string} text @param {boolean} left */
        const label = (text, left) => [...document.querySelectorAll('#board text.coord')]
            .filter((e) => e.textContent === text)
            .map((e) => /** @type {SVGTextElement} */ (e).getBBox())
            .sort((a, b) => a.x - b.x)[left ? 0 : 1];
        /** @param {string} p */
        const stone = (p) => /** @type {SVGGraphicsElement} */ (document.querySelector(`#board .marks > .stone[data-point="${p}"]`)).getBBox();
        const a10 = stone('a10'), o12 = stone('o12'), l10 = label('10', true), r12 = label('12', false);
        return { left: a10.x - (l10.x + l10.width), right: r12.x - (o12.x + o12.width) };
    });
    assert.ok(gaps.left > 0, `the left "10" is clear of the stone on a10 (${gaps.left.toFixed(1)})`);
    assert.ok(gaps.right > 0, `the right "12" is clear of the stone on o12 (${gaps.right.toFixed(1)})`);
    await ctx.close();
});

await test('defect 4: the scoreboard shows the online players and black\'s and white\'s wins', async () => {
    const a = await open();
    const b = await open();
    /** @param {import('playwright-core').Page} page @param {string} path @param {object} body */
    const post = (page, path, body) => page.evaluate(async ([path, body]) => {
        const r = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' },
            credentials: 'same-origin', body: JSON.stringify(body) });
        return { status: r.status, json: await r.json() };
    }, /** @type {[string, object]} */ ([path, body]));
    const room = await post(a.page, '/api/rooms', { name: 'Ann', black: 'me' });
    assert.equal(room.status, 201, JSON.stringify(room.json));
    const code = room.json.code;
    assert.equal((await post(b.page, `/api/rooms/${code}/join`, { name: 'Bob' })).status, 200);
    const moves = ['h8', 'a1', 'h9', 'a3', 'h10', 'a5', 'h11', 'a7', 'h12'];
    for (let i = 0; i < moves.length; i++) {
        const r = await post(i % 2 ? b.page : a.page, `/api/rooms/${code}/move`, { point: moves[i], ply: i });
        assert.equal(r.status, 200, JSON.stringify(r.json));
    }
    await a.page.click('#open-games');
    await a.page.waitForSelector('.online-players');
    const players = (await a.page.textContent('.online-players')) || '';
    assert.match(players, /Ann\s*1\s*1\s*0\s*0/);
    assert.match(players, /Bob\s*1\s*0\s*1\s*0/);
    const board = (await a.page.textContent('#scoreboard')) || '';
    assert.match(board, /online\s*—\s*1\s*Black 1\s*White 0\s*0/);
    await a.ctx.close();
    await b.ctx.close();
});

await test('defect 5: in Chinese, the server\'s errors are in Chinese', async () => {
    const { ctx, page } = await open({ locale: 'zh-CN' });
    await page.goto(`${server.url}online.html#room=ZZZZZZZZZZZZ`);
    await page.waitForSelector('body[data-ready]');
    await page.waitForFunction(() => (document.querySelector('#message')?.textContent || '').length > 0);
    assert.equal(await page.textContent('#message'), '没有这个房间');
    await ctx.close();
});

await test('defects 3 and 12: offers seen and declined; the winner told; a spectator not asked to invite', async () => {
    const a = await open();
    const b = await open();
    const c = await open();
    /** @param {import('playwright-core').Page} page @param {string} path @param {object} body */
    const post = (page, path, body) => page.evaluate(async ([path, body]) => {
        const r = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' },
            credentials: 'same-origin', body: JSON.stringify(body) });
        return { status: r.status, json: await r.json() };
    }, /** @type {[string, object]} */ ([path, body]));
    const code = (await post(a.page, '/api/rooms', { name: 'Ann', black: 'me' })).json.code;
    await post(b.page, `/api/rooms/${code}/join`, { name: 'Bob' });
    await post(c.page, `/api/rooms/${code}/join`, { name: 'Cy' }); // both seats taken: Cy watches
    for (const x of [a, b, c]) {
        await x.page.goto(`${server.url}online.html#room=${code}`);
        await x.page.waitForSelector('body[data-room="playing"]');
    }
    assert.equal(await c.page.isVisible('#invite'), false, 'the spectator is not asked to send a link');
    await post(a.page, `/api/rooms/${code}/move`, { point: 'h8', ply: 0 });
    await a.page.click('#draw');
    await a.page.waitForFunction(() => /waiting for the answer/.test(document.querySelector('#my-offer')?.textContent || ''));
    await b.page.waitForSelector('#offer:not([hidden])');
    await b.page.click('#offer-decline');
    await a.page.waitForFunction(() => /Your draw offer was declined/.test(document.querySelector('#my-offer')?.textContent || ''));
    const moves = ['a1', 'h9', 'a3', 'h10', 'a5', 'h11', 'a7', 'h12'];
    for (let i = 0; i < moves.length; i++)
        assert.equal((await post(i % 2 ? a.page : b.page, `/api/rooms/${code}/move`, { point: moves[i], ply: i + 1 })).status, 200);
    await a.page.waitForFunction(() => /You win!/.test(document.querySelector('#status')?.textContent || ''));
    await b.page.waitForFunction(() => /You lose\./.test(document.querySelector('#status')?.textContent || ''));
    await c.page.waitForFunction(() => /wins/.test(document.querySelector('#status')?.textContent || ''));
    assert.doesNotMatch((await c.page.textContent('#status')) || '', /You (win|lose)/);
    for (const x of [a, b, c]) await x.ctx.close();
});

await test('defect 11: before a room exists, no empty board, the forms on a phone\'s screen, styled inputs', async () => {
    const { ctx, page } = await open({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await page.goto(`${server.url}online.html`);
    await page.waitForSelector('body[data-ready]');
    await page.waitForSelector('#create-form:not([hidden])');
    assert.equal(await page.isVisible('#board'), false, 'no board before a room');
    const box = await page.locator('#create-form').boundingBox();
    assert.ok(box && box.y + 80 < 844, `the form starts on the screen (${JSON.stringify(box)})`);
    const border = await page.$eval('#create-form input[name=name]', (e) => getComputedStyle(e).borderRadius);
    assert.equal(border, '8px', 'the text inputs have the page\'s style');
    await page.screenshot({ path: path.join(SHOTS, 'teach-phone-online-start.png') });
    await ctx.close();
});

await test('a review can be cancelled, and is said to be', async () => {
    const { ctx, page } = await open();
    await gameWith(page, LONG);
    await page.click('#review-start');
    await page.waitForSelector('#review-progress:not([hidden])');
    await page.click('#review-cancel');
    await page.waitForFunction(() => /Review cancelled/.test(document.querySelector('#review-out')?.textContent || ''));
    await ctx.close();
});

await test('a phone in Chinese: the review in Chinese, nothing cut off', async () => {
    const { ctx, page } = await open({ viewport: { width: 390, height: 844 }, locale: 'zh-CN', isMobile: true, hasTouch: true });
    await gameWith(page, MISSED);
    await page.click('#review-start');
    await page.waitForSelector('#review-graph');
    assert.match((await page.textContent('.review-summary')) || '', /白方：欠佳 \d+，失误 \d+，大错 1/);
    await page.locator('#review-moves li:nth-child(9) button').click();
    await waitStones(page, 8);
    assert.match((await page.textContent('#review-now')) || '', /错失胜机/);
    assert.match((await page.textContent('#review-now')) || '', /更好：h12/);
    await page.evaluate(() => window.scrollTo(0, 0));
    await checkScreenshot(ctx, page, path.join(SHOTS, 'teach-phone-zh-review-board.png'));
    await page.locator('#review').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(SHOTS, 'teach-phone-zh-review.png') });
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(scroll <= 0, `no sideways scroll (${scroll} px)`);
    await ctx.close();
});

await test('take-back after the end against the computer: the game goes on', async () => {
    const { ctx, page } = await open();
    await page.evaluate(async () => {
        const r = await fetch('/api/games', {
            method: 'POST', headers: { 'Content-Type': 'application/json' }, credentials: 'same-origin',
            body: JSON.stringify({ mode: 'hvc', human: 'black', level: 1, moves: 'h8a1i8a2j8a3k8a4' }),
        });
        localStorage.setItem('gmk.game', String((await r.json()).id));
    });
    await page.reload();
    await page.waitForSelector('body[data-ready]');
    await waitStones(page, 8);
    const at = await pointXY(page, 'l8');
    await page.mouse.click(at.x, at.y);
    await waitStones(page, 9);
    await page.waitForFunction(() => /You win/.test(document.querySelector('#status')?.textContent || ''));
    await page.waitForSelector('#undo:not([disabled])');
    await page.click('#undo');
    await waitStones(page, 8);
    await page.waitForFunction(() => !/You win/.test(document.querySelector('#status')?.textContent || ''));
    const id = await page.evaluate(() => localStorage.getItem('gmk.game'));
    const s = await page.evaluate(async (id) => (await fetch(`/api/games/${id}`)).json(), id);
    assert.equal(s.over, false, 'the game is on again');
    assert.equal(s.moves.length, 8);
    // the move is played again: the win is back
    const again = await pointXY(page, 'l8');
    await page.mouse.click(again.x, again.y);
    await page.waitForFunction(() => /You win/.test(document.querySelector('#status')?.textContent || ''));
    await ctx.close();
});

/** Starts a game from the new-game dialog. @param {import('playwright-core').Page} page
 * @param {{mode: string, opening: string, human?: string, level?: string}} o */
async function newGameDialog(page, o) {
    await page.click('#new-game');
    await page.waitForSelector('#setup-dialog[open]');
    await page.check(`input[name=mode][value=${o.mode}]`);
    await page.selectOption('#setup-opening', o.opening);
    if (o.human) await page.check(`input[name=human][value=${o.human}]`);
    if (o.level) await page.selectOption('#setup-level', o.level);
    await page.click('#setup-start');
    await page.waitForSelector('#setup-dialog[open]', { state: 'detached' });
}

await test('swap2 against the computer: it proposes, the player places two more, it chooses', async () => {
    const { ctx, page } = await open({ bypassCSP: true });
    await newGameDialog(page, { mode: 'hvc', opening: 'swap2', human: 'white', level: '1' });
    await waitStones(page, 3);
    await page.waitForSelector('#swap-choice:not([hidden])');
    assert.match(await status(page), /Three stones are down: take black, take white or place two more/);
    assert.equal(await page.isVisible('#swap-place2'), true);
    assert.equal(await page.isDisabled('#resign'), true, 'no resignation before the colours are settled');
    assert.deepEqual(await axeProblems(page), [], 'axe-core on the choice');
    await checkScreenshot(ctx, page, path.join(SHOTS, 'teach-desktop-swap2-choose.png'));
    const free = ['a1', 'o15', 'a15', 'o1'];
    const id = await page.evaluate(() => localStorage.getItem('gmk.game'));
    const refused = await page.evaluate(async (id) => {
        const r = await fetch(`/api/games/${id}/move`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{"point":"a1"}' });
        return { status: r.status, body: await r.json() };
    }, id);
    assert.equal(refused.status, 409);
    assert.equal(refused.body.reason, 'choose', 'a move before the choice is refused');
    await page.click('#swap-place2');
    await page.waitForFunction(() => /Place two more stones: stone 1 of 2 \(White\)/.test(document.querySelector('#status')?.textContent || ''));
    assert.equal(await page.isVisible('#swap-choice'), false);
    await clickPoint(page, free[0]);
    await waitStones(page, 4);
    await clickPoint(page, free[1]);
    // the computer chooses at five stones: it takes black, or plays white's sixth stone
    await page.waitForFunction(() => /to move \(you\)/.test(document.querySelector('#status')?.textContent || ''));
    const s = await page.evaluate(async (id) => (await fetch(`/api/games/${id}`)).json(), id);
    assert.equal(s.phase, null);
    assert.equal(s.opening, 'swap2');
    assert.ok((s.moves.length === 5 && s.human === 'white') || (s.moves.length === 6 && s.human === 'black'),
        `${s.moves.length} stones, the human ${s.human}`);
    await page.waitForFunction(() => /You play (Black|White)/.test(document.querySelector('#announce')?.textContent || ''));
    assert.equal(await page.isDisabled('#resign'), false);
    await ctx.close();
});

await test('swap in Chinese on a phone: the player places the opening, the computer chooses', async () => {
    const { ctx, page } = await open({ viewport: { width: 390, height: 844 }, locale: 'zh-CN', isMobile: true, hasTouch: true });
    await newGameDialog(page, { mode: 'hvc', opening: 'swap', human: 'black', level: '1' });
    assert.match(await status(page), /摆开局：第 1 子，共 3 子（黑方）/);
    await clickPoint(page, 'h8');
    await waitStones(page, 1);
    assert.match(await status(page), /第 2 子，共 3 子（白方）/);
    await clickPoint(page, 'a1');
    await waitStones(page, 2);
    await checkScreenshot(ctx, page, path.join(SHOTS, 'teach-phone-zh-swap.png'));
    await clickPoint(page, 'i8');
    await page.waitForFunction(() => /（你）/.test(document.querySelector('#status')?.textContent || ''));
    const id = await page.evaluate(() => localStorage.getItem('gmk.game'));
    const s = await page.evaluate(async (id) => (await fetch(`/api/games/${id}`)).json(), id);
    assert.equal(s.phase, null);
    assert.ok((s.moves.length === 3 && s.human === 'white') || (s.moves.length === 4 && s.human === 'black'));
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(scroll <= 0, `no sideways scroll (${scroll} px)`);
    await ctx.close();
});

await browser.close();
const printed = await server.stop();
await test('the server reported no sanitizer error', async () => {
    assert.doesNotMatch(printed, /Sanitizer|runtime error/, printed.slice(0, 2000));
});
fs.rmSync(tmp, { recursive: true, force: true });
console.log(`teach: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
