// i18n.js: the page's texts in English and Simplified Chinese, and the language choice.
//
// The language is the one the player picked (remembered in localStorage), else the browser's
// (Chinese when it asks for zh), else the server's --lang. Static texts in index.html carry
// data-i18n="key" (and data-i18n-title / data-i18n-aria for attributes); applyTexts() fills them.
// Terms follow the terminal game's texts (src/tui/text.c) so both front ends say the same.

/** @typedef {'en' | 'zh'} Lang */

/** @type {Record<Lang, Record<string, string>>} */
const TEXTS = {
    en: {
        title: 'Gomoku',
        newGame: 'New game',
        games: 'Games',
        numbers: 'Numbers',
        undo: 'Undo',
        redo: 'Redo',
        hint: 'Hint',
        resign: 'Resign',
        analyse: 'Analyse',
        share: 'Share link',
        copied: 'Link copied',
        download: 'Download:',
        playOn: 'Play on from here',
        start: 'Start',
        cancel: 'Cancel',
        close: 'Close',
        yes: 'Yes, resign',
        no: 'No',
        resignAsk: 'Resign this game?',
        mode: 'Mode',
        modeHvc: 'Against the computer',
        modeHvh: 'Two people, one device',
        rule: 'Rule',
        size: 'Board size',
        level: 'Level',
        youPlay: 'You play',
        sideBlack: 'Black (moves first)',
        sideWhite: 'White (moves second)',
        rule_freestyle: 'Freestyle',
        rule_standard: 'Standard (exactly five)',
        rule_renju: 'Renju (black has forbidden moves)',
        rule_caro: 'Caro',
        black: 'Black',
        white: 'White',
        you: 'you',
        computer: 'computer',
        toMoveYou: '{0} to move (you)',
        toMove: '{0} to move',
        watching: 'Watching game #{0}: {1}',
        thinking: '{0} (computer) thinking… {1} s',
        hintAt: 'Hint: {0}',
        hinting: 'Looking for a hint…',
        wins: '{0} wins',
        draw: 'Draw',
        byFive: 'five in a row {0}-{1}',
        byForbidden: 'black played the forbidden point {0} ({1})',
        byResign: '{0} resigned',
        byFull: 'the board is full',
        youWin: 'You win!',
        youLose: 'You lose.',
        occupied: '{0} is taken',
        forbiddenAt: '{0} is forbidden for black ({1})',
        notYourTurn: 'It is not your turn',
        gameOver: 'The game is over',
        nothingUndo: 'Nothing to undo',
        nothingRedo: 'Nothing to redo',
        busy: 'The server is busy; try again in a moment.',
        offline: 'The server cannot be reached.',
        'double-three': 'double-three',
        'double-four': 'double-four',
        overline: 'overline',
        replay: 'Replay',
        replayOf: 'Replay of game #{0}',
        position: 'Position',
        moveOf: 'Move {0} of {1}',
        first: 'First move',
        prev: 'Previous move',
        next: 'Next move',
        last: 'Last move',
        backToGame: 'Back to my game',
        evalFor: 'Evaluation for {0}',
        ruleShort_freestyle: 'Freestyle',
        ruleShort_standard: 'Standard',
        ruleShort_renju: 'Renju',
        ruleShort_caro: 'Caro',
        best: 'Best move',
        pv: 'Principal variation',
        lines: 'Lines',
        depth: 'depth {0}, {1} nodes, {2} ms',
        analysing: 'Analysing…',
        scoreboard: 'Scoreboard',
        scoreEmpty: 'No finished games yet.',
        scMode: 'Mode',
        scLevel: 'Level',
        scGames: 'Games',
        scWon: 'Won',
        scLost: 'Lost',
        scDrawn: 'Drawn',
        total: 'Total: {0}',
        pastGames: 'Past games',
        noGames: 'No games yet.',
        unfinished: 'unfinished',
        abandoned: 'abandoned',
        movesN: '{0} moves',
        upload: 'Open a record',
        uploadHelp: 'A PSQ, SGF or move-string file; the rule is used when the record does not say.',
        open: 'Open',
        uploaded: 'Record ({0}, {1} moves)',
        sharedPosition: 'Shared position',
        language: 'Language',
        boardLabel: 'Board: arrows move the cursor, Enter plays',
        tapAgain: 'Tap {0} again to play it',
        'human-computer': 'you vs computer',
        'human-human': 'two humans',
        'computer-computer': 'computer vs computer',
        hvc: 'vs computer',
        hvh: 'two people',
        tooLarge: 'The file is too large for a record.',
        movePlayed: 'Move {0}: {1} {2}',
        resultWhy: '{0}: {1}',
        resultYou: '{0}. {1}',
        abandonedGame: 'This game was abandoned',
    },
    zh: {
        title: '五子棋',
        newGame: '新局',
        games: '棋局',
        numbers: '手数',
        undo: '悔棋',
        redo: '重做',
        hint: '提示',
        resign: '认输',
        analyse: '分析',
        share: '分享链接',
        copied: '链接已复制',
        download: '下载：',
        playOn: '从这里接着下',
        start: '开始',
        cancel: '取消',
        close: '关闭',
        yes: '认输',
        no: '不',
        resignAsk: '认输吗？',
        mode: '模式',
        modeHvc: '人机对战',
        modeHvh: '双人对战（同一设备）',
        rule: '规则',
        size: '棋盘大小',
        level: '难度',
        youPlay: '你执',
        sideBlack: '黑（先手）',
        sideWhite: '白（后手）',
        rule_freestyle: '无禁手',
        rule_standard: '标准（恰好五连）',
        rule_renju: '连珠（黑有禁手）',
        rule_caro: '卡罗',
        black: '黑方',
        white: '白方',
        you: '你',
        computer: '电脑',
        toMoveYou: '轮到{0}（你）',
        toMove: '轮到{0}',
        watching: '观看第 {0} 局：{1}',
        thinking: '{0}（电脑）思考中… {1} 秒',
        hintAt: '提示：{0}',
        hinting: '正在找提示…',
        wins: '{0}胜',
        draw: '和棋',
        byFive: '五连 {0}-{1}',
        byForbidden: '黑方下了禁手 {0}（{1}）',
        byResign: '{0}认输',
        byFull: '棋盘已满',
        youWin: '你赢了！',
        youLose: '你输了。',
        occupied: '{0} 已有棋子',
        forbiddenAt: '{0} 是黑方禁手（{1}）',
        notYourTurn: '还没轮到你',
        gameOver: '本局已结束',
        nothingUndo: '没有可悔的棋',
        nothingRedo: '没有可重做的棋',
        busy: '服务器忙，请稍后再试。',
        offline: '无法连接服务器。',
        'double-three': '三三',
        'double-four': '四四',
        overline: '长连',
        replay: '复盘',
        replayOf: '第 {0} 局复盘',
        position: '局面',
        moveOf: '第 {0} / {1} 手',
        first: '第一手',
        prev: '上一手',
        next: '下一手',
        last: '最后一手',
        backToGame: '回到我的棋局',
        evalFor: '{0}评估',
        ruleShort_freestyle: '无禁手',
        ruleShort_standard: '标准',
        ruleShort_renju: '连珠',
        ruleShort_caro: '卡罗',
        best: '最佳着法',
        pv: '主要变化',
        lines: '候选',
        depth: '深度 {0}，{1} 节点，{2} 毫秒',
        analysing: '分析中…',
        scoreboard: '战绩',
        scoreEmpty: '暂无已结束的对局。',
        scMode: '模式',
        scLevel: '难度',
        scGames: '局数',
        scWon: '胜',
        scLost: '负',
        scDrawn: '和',
        total: '合计：{0}',
        pastGames: '以往棋局',
        noGames: '还没有棋局。',
        unfinished: '未完',
        abandoned: '已放弃',
        movesN: '{0} 手',
        upload: '打开棋谱',
        uploadHelp: 'PSQ、SGF 或着法串文件；棋谱未注明规则时使用所选规则。',
        open: '打开',
        uploaded: '棋谱（{0}，{1} 手）',
        sharedPosition: '分享的局面',
        language: '语言',
        boardLabel: '棋盘：方向键移动光标，回车落子',
        tapAgain: '再点一次 {0} 即落子',
        'human-computer': '人机对战',
        'human-human': '双人对战',
        'computer-computer': '电脑对战',
        hvc: '人机',
        hvh: '双人',
        tooLarge: '文件太大，不是棋谱。',
        movePlayed: '第 {0} 手：{1} {2}',
        resultWhy: '{0}：{1}',
        resultYou: '{0}。{1}',
        abandonedGame: '这局已放弃',
    },
};

/** @type {Lang} */
let lang = 'en';

/** Chooses the language: the remembered switch, else the browser's, else the server's.
 * @param {string} serverLang @returns {Lang} */
export function chooseLang(serverLang) {
    const saved = localStorage.getItem('gmk.lang');
    if (saved === 'en' || saved === 'zh') return (lang = saved);
    const langs = navigator.languages && navigator.languages.length ? navigator.languages : [navigator.language];
    for (const l of langs) {
        if (/^zh\b/i.test(l)) return (lang = 'zh');
        if (/^en\b/i.test(l)) return (lang = 'en');
    }
    return (lang = serverLang === 'zh' ? 'zh' : 'en');
}

/** Switches the language and remembers it.
 * @param {Lang} l */
export function setLang(l) {
    lang = l;
    localStorage.setItem('gmk.lang', l);
}

/** @returns {Lang} */
export function currentLang() {
    return lang;
}

/** The text for key in the current language, with {0}, {1}... replaced by args.
 * @param {string} key @param {...(string | number)} args @returns {string} */
export function t(key, ...args) {
    const s = TEXTS[lang][key] ?? TEXTS.en[key] ?? key;
    return s.replace(/\{(\d)\}/g, (_, i) => String(args[Number(i)] ?? ''));
}

/** Fills every element marked data-i18n (text), data-i18n-title and data-i18n-aria. */
export function applyTexts() {
    document.documentElement.lang = lang === 'zh' ? 'zh-CN' : 'en';
    for (const e of document.querySelectorAll('[data-i18n]')) {
        e.textContent = t(/** @type {HTMLElement} */ (e).dataset.i18n || '');
    }
    for (const e of document.querySelectorAll('[data-i18n-title]')) {
        e.setAttribute('title', t(/** @type {HTMLElement} */ (e).dataset.i18nTitle || ''));
    }
    for (const e of document.querySelectorAll('[data-i18n-aria]')) {
        e.setAttribute('aria-label', t(/** @type {HTMLElement} */ (e).dataset.i18nAria || ''));
    }
    document.title = t('title');
}
