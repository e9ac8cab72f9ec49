// movelist.js: the numbered moves beside the board, in play and replay (the review has its own,
// with labels). A click goes to the position after that move: in a replay there, in a live game
// into a replay of it (Back to my game returns).

import { t } from './i18n.js';
import { $, colorName } from './app.js';

/** @typedef {import('./app.js').App} App */

export class MoveList {
    /** @param {App} app */
    constructor(app) {
        this.app = app;
    }

    render() {
        const box = $('move-list');
        const app = this.app;
        const reviewing = app.review.active() && !!app.review.data && app.review.data.status === 'done';
        const show = (app.showing === 'game' || app.showing === 'replay') && !reviewing;
        box.hidden = !show;
        if (!show) return;
        const replay = app.showing === 'replay';
        const moves = replay ? app.replay.src.moves : app.game.state ? app.game.state.moves : [];
        const current = replay ? app.replay.ply : moves.length;
        const ol = document.createElement('ol');
        moves.forEach((m, i) => {
            const li = document.createElement('li');
            const b = document.createElement('button');
            b.type = 'button';
            b.textContent = m;
            b.setAttribute('aria-label', `${i + 1}. ${colorName(i % 2 ? 'white' : 'black')} ${m}`);
            if (i + 1 === current) b.setAttribute('aria-current', 'step');
            b.addEventListener('click', () => this.go(i + 1));
            li.append(b);
            ol.append(li);
        });
        box.replaceChildren(ol);
        box.setAttribute('aria-label', t('moveListLabel'));
    }

    /** @param {number} ply */
    go(ply) {
        const app = this.app;
        if (app.showing === 'replay') {
            app.replay.go(ply);
            return;
        }
        const s = app.game.state;
        if (!s) return;
        app.replay.show({ title: t('replayOf', s.id), rule: s.rule, size: s.size, moves: s.moves, result: s.result, gameId: s.id });
        app.replay.go(ply);
    }
}
