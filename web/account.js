// account.js: the account page (account.html, docs/accounts.md). A guest sees sign-up and
// log-in (its browser's games and scoreboard below, which signing up claims); a signed-in player
// sees its name and player page, its sessions (each can be ended; "log out everywhere else"),
// a new password, its games and scoreboard on any device, and deleting the account. Names and
// browsers' descriptions are put in as text only, never as HTML. Every click is a request; the
// page then draws what the server says.

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

/** @param {string} id */
const value = (id) => /** @type {HTMLInputElement} */ ($(id)).value;

/** @param {string} tag @param {string} [text] @param {string} [cls] */
function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    if (cls) e.className = cls;
    return e;
}

/** @param {number} s Unix seconds */
const when = (s) => new Date(s * 1000).toLocaleString(currentLang() === 'zh' ? 'zh-CN' : 'en');

/** @param {unknown} err */
function fail(err) {
    $('notice').textContent = '';
    $('message').textContent = serverText(String(/** @type {Error} */ (err).message));
}

/** @param {string} text */
function notice(text) {
    $('message').textContent = '';
    $('notice').textContent = text;
}

/** @type {people.Account | null} */
let account = null;

async function drawSessions() {
    const ul = $('sessions');
    ul.replaceChildren();
    for (const s of await people.sessions()) {
        const li = el('li');
        li.dataset.session = String(s.id);
        li.append(el('span', s.agent || '?', 'agent'), ' · ', el('span', t('acLastUsed', when(s.seen)), 'small'));
        if (s.current) {
            li.append(' · ', el('strong', t('acThisDevice')));
        } else {
            const b = el('button', t('acEnd'));
            b.setAttribute('type', 'button');
            b.addEventListener('click', async () => {
                try {
                    await people.endSessions(s.id);
                    await drawSessions();
                } catch (err) {
                    fail(err);
                }
            });
            li.append(' ', b);
        }
        ul.append(li);
    }
}

async function drawMine() {
    const [games, stats] = await Promise.all([people.myGames(), people.myStats()]);
    const tb = /** @type {HTMLTableElement} */ ($('my-score')).tBodies[0];
    tb.replaceChildren();
    for (const l of stats.lines) {
        const tr = el('tr');
        const what = t(`mode_${l.mode}`) + (l.level ? ` · ${t('level')} ${l.level}` : '');
        tr.append(el('td', what), el('td', String(l.games), 'num'), el('td', `${l.wins} / ${l.losses} / ${l.draws}`, 'num'));
        tb.append(tr);
    }
    const ul = $('my-games');
    ul.replaceChildren();
    if (!games.games.length) ul.append(el('li', t('acNoGames')));
    for (const g of games.games.slice(0, 50)) {
        const li = el('li');
        li.dataset.game = String(g.id);
        li.append(`${g.black || '?'} – ${g.white || '?'} · ${g.rule} ${g.size} · ${when(g.started)}`);
        if (g.outcome) li.append(` · ${g.outcome}`);
        const a = /** @type {HTMLAnchorElement} */ (el('a', 'SGF'));
        a.href = `/api/games/${g.id}/record?format=sgf`;
        a.download = `game-${g.id}.sgf`;
        li.append(' · ', a);
        ul.append(li);
    }
}

async function draw() {
    account = await people.me();
    $('signed-out').hidden = account !== null;
    $('signed-in').hidden = account === null;
    $('danger').hidden = account === null;
    document.body.dataset.account = account ? account.name : '';
    if (account) {
        $('me-name').textContent = account.name;
        /** @type {HTMLAnchorElement} */ ($('me-page')).href = people.playerLink(account.name);
        await drawSessions();
    }
    await drawMine();
}

/** Runs an action, then draws the page again; a refusal is shown.
 * @param {() => Promise<unknown>} fn @param {string} [done] */
async function act(fn, done) {
    try {
        await fn();
        await draw();
        if (done) notice(done);
        else $('message').textContent = '';
    } catch (err) {
        fail(err);
    }
}

/** @param {string} id @param {(e: Event) => Promise<void>} fn */
function onSubmit(id, fn) {
    $(id).addEventListener('submit', (e) => {
        e.preventDefault();
        fn(e);
    });
}

async function main() {
    let serverLang = 'en';
    try {
        serverLang = (await getConfig()).lang;
    } catch {
        // the calls below say what is wrong
    }
    chooseLang(serverLang);
    applyTexts('acTitle');
    const sel = /** @type {HTMLSelectElement} */ ($('lang'));
    sel.value = currentLang();
    sel.addEventListener('change', async () => {
        setLang(sel.value === 'zh' ? 'zh' : 'en');
        applyTexts('acTitle');
        await draw();
    });
    onSubmit('signup-form', () => act(() => people.signUp(value('signup-name').trim(), value('signup-password'))));
    onSubmit('login-form', () => act(() => people.logIn(value('login-name').trim(), value('login-password'))));
    $('logout').addEventListener('click', () => act(() => people.logOut()));
    $('end-others').addEventListener('click', async () => {
        try {
            const r = await people.endSessions(null);
            await draw();
            notice(t('acEndedN', r.ended));
        } catch (err) {
            fail(err);
        }
    });
    onSubmit('password-form', () =>
        act(async () => {
            await people.changePassword(value('pw-current'), value('pw-new'));
            /** @type {HTMLFormElement} */ ($('password-form')).reset();
        }, t('acPasswordChanged')));
    onSubmit('delete-form', () => act(() => people.deleteAccount(value('delete-password')), t('acDeleted')));
    try {
        await draw();
    } catch (err) {
        fail(err);
    }
    document.body.dataset.ready = '1';
}

main();
