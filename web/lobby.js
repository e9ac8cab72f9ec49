// lobby.js: the lobby (lobby.html, docs/lobby.md): the open seeks and the games in progress,
// kept live from the lobby's event stream (/api/lobby/events: no polling); "Play now" (quick
// pairing for a clock), posting a seek, accepting someone's, cancelling one's own. When a game
// is made, for either side, the page goes to the room (online.html#room=CODE), whose seat the
// browser already holds (the cookie came with the post or the accept). The lobby's chat: the
// lines kept come with the stream's first event, new ones as `chat` events; a line is sent
// with the name typed (a guest's) and the server checks it; a viewer may hide a person's lines
// in this browser (by the speaker's mark, `from`). Names and lines are drawn as text only
// (textContent, each in a bdi). It decides nothing: the server pairs and says so.

import { getConfig } from './api.js';
import { applyTexts, chooseLang, currentLang, serverText, setLang, t } from './i18n.js';

/**
 * @typedef {object} Seek
 * @property {number} id
 * @property {string} name
 * @property {number} rating
 * @property {string} rule
 * @property {number} size
 * @property {string} clock
 * @property {boolean} rated
 * @property {'random' | 'black' | 'white'} color
 */
/** @typedef {{code: string, rule: string, size: number, clock: string, black: string, white: string}} LiveGame */
/** @typedef {{id: number, at_ms: number, name: string, text: string, account: boolean, from: string}} ChatLine */

/** @param {string} id @returns {HTMLElement} */
function $(id) {
    const e = document.getElementById(id);
    if (!e) throw new Error(`#${id} is missing`);
    return e;
}

/** @param {string} id @returns {HTMLInputElement} */
const input = (id) => /** @type {HTMLInputElement} */ ($(id));

/** @param {string} path @param {unknown} body @returns {Promise<{status: number, data: any}>} */
async function post(path, body) {
    const res = await fetch(path, {
        method: 'POST', credentials: 'same-origin',
        headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(serverText(String(data.error || res.statusText)));
    return { status: res.status, data };
}

/** @type {Map<number, Seek>} */
const seeks = new Map();
/** My open seeks and my quick-pairing wait, by id. @type {Set<number>} */
const mine = new Set();
/** @type {LiveGame[]} */
let games = [];
let me = { name: '', rating: 1500, signed_in: false };
let waitingId = 0;
/** The chat lines drawn, by id. @type {Set<number>} */
const chatSeen = new Set();
/** The speakers whose lines this browser hides (their marks). @type {Set<string>} */
const hidden = new Set(JSON.parse(localStorage.getItem('gmk.lobbyHidden') || '[]'));

/** @param {string} text */
function message(text) {
    $('message').textContent = text;
}

/** A cell with text (never HTML). @param {string} text @param {string} [cls] */
function cell(text, cls) {
    const td = document.createElement('td');
    if (cls) td.className = cls;
    const b = document.createElement('bdi');
    b.textContent = text;
    td.append(b);
    return td;
}

/** @param {string} rule */
const ruleText = (rule) => t(`ruleShort_${rule}`);

function drawSeeks() {
    const body = /** @type {HTMLTableElement} */ ($('seeks')).tBodies[0];
    body.replaceChildren();
    for (const k of [...seeks.values()].sort((a, b) => b.id - a.id)) {
        const tr = document.createElement('tr');
        tr.dataset.id = String(k.id);
        const own = mine.has(k.id);
        tr.classList.toggle('mine', own);
        const color = k.color === 'random' ? t('onRandom') : t(k.color);
        tr.append(cell(k.name, 'name'), cell(String(k.rating)), cell(`${ruleText(k.rule)} ${k.size}`),
            cell(k.clock === 'none' ? t('onNoClock') : k.clock), cell(k.rated ? t('lbRated') : t('lbCasual')), cell(color));
        const td = document.createElement('td');
        const btn = document.createElement('button');
        btn.type = 'button';
        btn.className = own ? 'cancel' : 'accept primary';
        btn.textContent = own ? t('cancel') : t('lbAccept');
        btn.addEventListener('click', () => (own ? cancel(k.id) : accept(k.id)));
        td.append(btn);
        tr.append(td);
        body.append(tr);
    }
    $('no-seeks').hidden = seeks.size > 0;
}

function drawGames() {
    const body = /** @type {HTMLTableElement} */ ($('games')).tBodies[0];
    body.replaceChildren();
    for (const g of games) {
        const tr = document.createElement('tr');
        tr.dataset.code = g.code;
        const td = document.createElement('td');
        const a = document.createElement('a');
        a.href = `online.html#room=${g.code}`;
        a.textContent = t('lbWatch');
        td.append(a);
        tr.append(cell(`${g.black} – ${g.white}`, 'name'), cell(`${ruleText(g.rule)} ${g.size}`),
            cell(g.clock === 'none' ? t('onNoClock') : g.clock), td);
        body.append(tr);
    }
    $('no-games').hidden = games.length > 0;
}

/** Draws a chat line at the end of the list (once; not when its speaker is hidden): the name
 * and the text as text, each isolated (bdi), and a button to hide the speaker.
 * @param {ChatLine} c */
function chatLine(c) {
    if (chatSeen.has(c.id)) return;
    chatSeen.add(c.id);
    const list = $('chat-lines');
    const li = document.createElement('li');
    li.dataset.from = c.from;
    li.hidden = hidden.has(c.from);
    const who = document.createElement('bdi');
    who.className = 'who';
    who.textContent = c.name;
    const text = document.createElement('bdi');
    text.className = 'text';
    text.textContent = c.text;
    const hide = document.createElement('button');
    hide.type = 'button';
    hide.className = 'hide';
    hide.textContent = t('lbHide');
    hide.setAttribute('aria-label', t('lbHideWho', c.name));
    hide.addEventListener('click', () => {
        hidden.add(c.from);
        saveHidden();
        $('chat-text').focus();
    });
    li.append(who, text, hide);
    const bottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    list.append(li);
    while (list.children.length > 200) list.firstElementChild?.remove();
    if (bottom) list.scrollTop = list.scrollHeight;
    drawChatNotes();
}

/** Keeps the hidden speakers, shows or hides their lines. */
function saveHidden() {
    localStorage.setItem('gmk.lobbyHidden', JSON.stringify([...hidden].slice(-200)));
    for (const li of /** @type {NodeListOf<HTMLElement>} */ ($('chat-lines').querySelectorAll('li'))) {
        li.hidden = hidden.has(li.dataset.from || '');
    }
    drawChatNotes();
}

function drawChatNotes() {
    const lines = [...$('chat-lines').children];
    $('no-chat').hidden = lines.some((li) => !(/** @type {HTMLElement} */ (li).hidden));
    $('chat-hidden').hidden = hidden.size === 0;
    $('chat-hidden-text').textContent = t('lbHidden', hidden.size);
}

/** Sends the line typed, under the name to play under. */
async function say() {
    const text = input('chat-text').value.trim();
    if (!text) return;
    message('');
    const name = myName();
    if (!name) return;
    try {
        const r = await post('/api/lobby/chat', { name, text });
        input('chat-text').value = '';
        chatLine(r.data);
    } catch (e) {
        message(String(/** @type {Error} */ (e).message));
    }
}

function drawMe() {
    $('me').textContent = me.signed_in ? t('lbYou', me.name, me.rating) : t('lbGuest', me.rating);
    const name = input('lobby-name');
    name.hidden = me.signed_in;
    /** @type {HTMLLabelElement} */ (name.parentElement).hidden = me.signed_in;
    input('seek-rated').disabled = !me.signed_in;
    $('waiting').hidden = waitingId === 0;
}

/** The name to play under (a guest's, typed and remembered); '' with a message when none. */
function myName() {
    if (me.signed_in) return me.name;
    const name = input('lobby-name').value.trim();
    if (!name) message(t('lbNeedName'));
    else localStorage.setItem('gmk.name', name);
    return name;
}

/** @param {string} code */
function goToRoom(code) {
    location.href = `online.html#room=${code}`;
}

/** @param {number} id */
async function accept(id) {
    message('');
    const name = myName();
    if (!name) return;
    try {
        goToRoom((await post(`/api/lobby/seeks/${id}/accept`, { name })).data.code);
    } catch (e) {
        message(String(/** @type {Error} */ (e).message));
    }
}

/** @param {number} id */
async function cancel(id) {
    message('');
    try {
        await post(`/api/lobby/seeks/${id}/cancel`, {});
        mine.delete(id);
        if (id === waitingId) waitingId = 0;
        drawMe();
        drawSeeks();
    } catch (e) {
        message(String(/** @type {Error} */ (e).message));
    }
}

function listen() {
    const es = new EventSource('/api/lobby/events');
    es.addEventListener('lobby', (e) => {
        const d = JSON.parse(/** @type {MessageEvent} */ (e).data);
        seeks.clear();
        for (const k of d.seeks) seeks.set(k.id, k);
        for (const id of d.you.seeks) mine.add(id);
        games = d.games;
        me = d.you;
        chatSeen.clear();
        $('chat-lines').replaceChildren();
        for (const c of d.chat || []) chatLine(c);
        drawChatNotes();
        if (!me.signed_in && !input('lobby-name').value) input('lobby-name').value = localStorage.getItem('gmk.name') || '';
        drawMe();
        drawSeeks();
        drawGames();
        document.body.dataset.ready = '1';
    });
    es.addEventListener('seek', (e) => {
        const k = JSON.parse(/** @type {MessageEvent} */ (e).data);
        seeks.set(k.id, k);
        drawSeeks();
    });
    es.addEventListener('unseek', (e) => {
        seeks.delete(JSON.parse(/** @type {MessageEvent} */ (e).data).id);
        drawSeeks();
    });
    es.addEventListener('chat', (e) => chatLine(JSON.parse(/** @type {MessageEvent} */ (e).data)));
    es.addEventListener('games', (e) => {
        games = JSON.parse(/** @type {MessageEvent} */ (e).data).games;
        drawGames();
    });
    // one of my seeks (or my wait) was taken: my seat's cookie came with the post
    es.addEventListener('paired', (e) => goToRoom(JSON.parse(/** @type {MessageEvent} */ (e).data).code));
}

async function main() {
    let serverLang = 'en';
    try {
        serverLang = (await getConfig()).lang;
    } catch {
        // the stream below says what is wrong
    }
    chooseLang(serverLang);
    applyTexts('lbTitle');
    const sel = /** @type {HTMLSelectElement} */ ($('lang'));
    sel.value = currentLang();
    sel.addEventListener('change', () => {
        setLang(sel.value === 'zh' ? 'zh' : 'en');
        applyTexts('lbTitle');
        drawMe();
        drawSeeks();
        drawGames();
        drawChatNotes();
        for (const b of document.querySelectorAll('#chat-lines .hide')) {
            b.textContent = t('lbHide');
            b.setAttribute('aria-label', t('lbHideWho', b.parentElement?.querySelector('.who')?.textContent || ''));
        }
    });
    $('chat-form').addEventListener('submit', (e) => {
        e.preventDefault();
        say();
    });
    $('chat-unhide').addEventListener('click', () => {
        hidden.clear();
        saveHidden();
    });
    $('play-form').addEventListener('submit', async (e) => {
        e.preventDefault();
        message('');
        const name = myName();
        if (!name) return;
        const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
        try {
            const r = await post('/api/lobby/play', { name, clock: f.get('clock') });
            if (r.status === 200) return goToRoom(r.data.code);
            waitingId = r.data.waiting;
            mine.add(waitingId);
            drawMe();
        } catch (err) {
            message(String(/** @type {Error} */ (err).message));
        }
    });
    $('waiting-cancel').addEventListener('click', () => cancel(waitingId));
    $('seek-form').addEventListener('submit', async (e) => {
        e.preventDefault();
        message('');
        const name = myName();
        if (!name) return;
        const f = new FormData(/** @type {HTMLFormElement} */ (e.target));
        try {
            const r = await post('/api/lobby/seeks', {
                name, rule: f.get('rule'), size: Number(f.get('size')), clock: f.get('clock'),
                color: f.get('color'), rated: f.get('rated') === 'on',
            });
            mine.add(r.data.id);
            seeks.set(r.data.id, r.data);
            drawSeeks();
        } catch (err) {
            message(String(/** @type {Error} */ (err).message));
        }
    });
    listen();
}

main();
