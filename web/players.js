// players.js: the players' pages (players.html, docs/http-api.md "Ratings and players").
// Without a name in the link: the leaderboard of a rule and time-control class (provisional
// ratings on request). With #name=NAME: that player's page: its ratings (a "?" while
// provisional), the history of one rating drawn as a line (SVG, built from the numbers; a click
// on a rating's row draws that one), and its recent online games from its side. Names are put
// in as text only.

import { getConfig } from './api.js';
import { applyTexts, chooseLang, currentLang, serverText, setLang, t } from './i18n.js';
import './people_texts.js';
import * as people from './people_api.js';

/** @param {string} id @returns {HTMLElement} */
function $(id) {
    const e = document.getElementById(id);
    if (!e) throw new Error(`#${id} is missing`);
    return e;
}

/** @param {string} tag @param {string} [text] @param {string} [cls] */
function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
}

const SVG = 'http://www.w3.org/2000/svg';
/** @param {string} tag @param {Record<string, string | number>} attrs */
function svg(tag, attrs) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
}

/** @param {unknown} err */
function fail(err) {
    $('message').textContent = serverText(String(/** @type {Error} */ (err).message));
}

const ruleText = (/** @type {string} */ r) => t(`ruleShort_${r}`);
const tcText = (/** @type {string} */ tc) => t(`tc_${tc}`);

async function drawBoard() {
    const rule = /** @type {HTMLSelectElement} */ ($('lb-rule')).value;
    const tc = /** @type {HTMLSelectElement} */ ($('lb-tc')).value;
    const prov = /** @type {HTMLInputElement} */ ($('lb-provisional')).checked;
    const { players } = await people.leaderboard(rule, tc, prov);
    const tb = /** @type {HTMLTableElement} */ ($('leaderboard')).tBodies[0];
    tb.replaceChildren();
    for (const p of players) {
        const tr = el('tr');
        const a = /** @type {HTMLAnchorElement} */ (el('a', p.name || ''));
        a.href = people.playerLink(p.name || '');
        const name = el('td');
        name.append(a);
        tr.append(el('td', String(p.rank), 'num'), name, el('td', people.ratingText(p), 'num'),
            el('td', String(p.games), 'num'), el('td', `${p.wins} / ${p.losses} / ${p.draws}`, 'num'));
        tb.append(tr);
    }
    $('lb-empty').hidden = players.length > 0;
    document.body.dataset.players = String(players.length);
}

/** Draws a rating's history as a line: x by game, y by rating (the range padded by 20).
 * @param {people.Rating | undefined} r */
function drawHistory(r) {
    const g = $('history');
    g.replaceChildren();
    const pts = r && r.history ? r.history : [];
    g.dataset.points = String(pts.length);
    if (!pts.length) return;
    const W = 600, H = 220, L = 48, R = 12, T = 12, B = 24;
    const lo = Math.min(...pts.map((p) => p.rating)) - 20, hi = Math.max(...pts.map((p) => p.rating)) + 20;
    const x = (/** @type {number} */ i) => (pts.length === 1 ? (L + W - R) / 2 : L + (i * (W - L - R)) / (pts.length - 1));
    const y = (/** @type {number} */ v) => T + ((hi - v) * (H - T - B)) / (hi - lo);
    g.append(svg('line', { x1: L, y1: T, x2: L, y2: H - B, stroke: 'currentColor', 'stroke-opacity': 0.3 }));
    g.append(svg('line', { x1: L, y1: H - B, x2: W - R, y2: H - B, stroke: 'currentColor', 'stroke-opacity': 0.3 }));
    for (const v of [hi - 20, lo + 20]) {
        const label = svg('text', { x: 4, y: y(v) + 4 });
        label.textContent = String(v);
        g.append(label);
    }
    g.append(svg('polyline', { points: pts.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ') }));
    pts.forEach((p, i) => {
        const c = svg('circle', { cx: x(i).toFixed(1), cy: y(p.rating).toFixed(1), r: 3 });
        const tip = document.createElementNS(SVG, 'title');
        tip.textContent = `${p.rating} (±${2 * p.deviation}) · ${new Date(p.at * 1000).toLocaleDateString(currentLang() === 'zh' ? 'zh-CN' : 'en')}`;
        c.append(tip);
        g.append(c);
    });
}

/** @param {string} name */
async function drawPlayer(name) {
    const p = await people.player(name);
    $('pl-name').textContent = p.name;
    $('pl-joined').textContent = t('plJoined', new Date(p.created * 1000).toLocaleDateString(currentLang() === 'zh' ? 'zh-CN' : 'en'));
    const tb = /** @type {HTMLTableElement} */ ($('pl-ratings')).tBodies[0];
    tb.replaceChildren();
    p.ratings.forEach((r, i) => {
        const tr = el('tr');
        tr.dataset.tc = r.tc;
        tr.append(el('td', ruleText(r.rule)), el('td', tcText(r.tc)), el('td', people.ratingText(r), 'num rating'),
            el('td', String(r.games), 'num'), el('td', `${r.wins} / ${r.losses} / ${r.draws}`, 'num'));
        tr.addEventListener('click', () => drawHistory(p.ratings[i]));
        tb.append(tr);
    });
    $('pl-none').hidden = p.ratings.length > 0;
    // the rating with the most games first
    drawHistory([...p.ratings].sort((a, b) => b.games - a.games)[0]);
    const ul = $('pl-games');
    ul.replaceChildren();
    for (const g of p.games) {
        const mine = g.color;
        const res = !g.outcome ? t('plOn')
            : g.outcome === 'draw' ? t('plDrew')
            : (g.outcome === 'black wins') === (mine === 'black') ? t('plWon') : t('plLost');
        const li = el('li', `${g.black} – ${g.white} · ${ruleText(g.rule)} ${g.size} · ${res}`);
        li.dataset.game = String(g.id);
        ul.append(li);
    }
}

function nameInLink() {
    const q = new URLSearchParams(location.hash.replace(/^#/, ''));
    return q.get('name');
}

async function route() {
    const name = nameInLink();
    $('message').textContent = '';
    $('board-section').hidden = name !== null;
    $('player-section').hidden = name === null;
    try {
        if (name === null) await drawBoard();
        else await drawPlayer(name);
    } catch (err) {
        fail(err);
    }
}

async function main() {
    let serverLang = 'en';
    try {
        serverLang = (await getConfig()).lang;
    } catch {
        // the calls below say what is wrong
    }
    chooseLang(serverLang);
    applyTexts('plTitle');
    const sel = /** @type {HTMLSelectElement} */ ($('lang'));
    sel.value = currentLang();
    sel.addEventListener('change', async () => {
        setLang(sel.value === 'zh' ? 'zh' : 'en');
        applyTexts('plTitle');
        await route();
    });
    for (const id of ['lb-rule', 'lb-tc', 'lb-provisional']) $(id).addEventListener('change', () => route());
    window.addEventListener('hashchange', () => route());
    await route();
    document.body.dataset.ready = '1';
}

main();
