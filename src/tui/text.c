/* text.c: English and Simplified Chinese texts of the terminal game (see text.h). */
#include "text.h"

#include <stdlib.h>
#include <string.h>

#include "game/level.h"

static const char
    *const texts[TUI_LANG_COUNT][T_COUNT] =
        {
            [TUI_LANG_EN] =
                {
                    [T_TITLE] = "Gomoku",
                    [T_MODE] = "Mode",
                    [T_RULE] = "Rule",
                    [T_LEVEL] = "Level",
                    [T_BLACK] = "Black",
                    [T_WHITE] = "White",
                    [T_YOU] = "you",
                    [T_COMPUTER] = "computer",
                    [T_PLAYER_BLACK] = "player 1",
                    [T_PLAYER_WHITE] = "player 2",
                    [T_MOVE_N] = "Move %d",
                    [T_MOVE_LAST] = "Move %d, last %s",
                    [T_LABEL] = "%s: %s",
                    [T_RESULT] = "%s: %s. %s",
                    [T_CURSOR] = "Cursor %s",
                    [T_NOT_SAVING] = "Not saving",
                    [T_SAVING] = "Saved as game #%lld",
                    [T_KEYS] = "Keys",
                    [T_KEY_MOVE] = "arrows hjkl  move",
                    [T_KEY_PLACE] = "Enter Space  place",
                    [T_KEY_TYPE] = ":h8 Enter   play h8",
                    [T_KEY_UNDO] = "u undo   U redo",
                    [T_KEY_HINT] = "? hint w why r resign",
                    [T_KEY_NEW] = "n new s scores P puzzles",
                    [T_KEY_QUIT] = "q quit (game kept)",
                    [T_KEY_NOW] = "Enter  move now",
                    [T_TO_MOVE_YOU] = "%s to move (you)",
                    [T_TO_MOVE] = "%s to move",
                    [T_THINKING] = "%s (computer) thinking\xE2\x80\xA6 %.1fs",
                    [T_THINKING_HINT] = "Enter: move now",
                    [T_HINTING] = "looking for a hint\xE2\x80\xA6 %.1fs",
                    [T_HINT_AT] = "Hint: %s (marked ?)",
                    [T_WINS] = "%s wins",
                    [T_DRAW] = "Draw",
                    [T_BY_FIVE] = "five in a row %s-%s",
                    [T_BY_FORBIDDEN] = "black played the forbidden point %s (%s)",
                    [T_BY_RESIGN] = "%s resigned",
                    [T_BY_FULL] = "the board is full",
                    [T_BY_NO_POINT] = "black has no legal point left",
                    [T_YOU_WIN] = "You win!",
                    [T_YOU_LOSE] = "You lose.",
                    [T_OVER_KEYS] = "n: new game",
                    [T_OCCUPIED] = "%s is taken",
                    [T_FORBIDDEN_POINT] =
                        "%s is forbidden for black (%s); place it again to play it and lose",
                    [T_NOT_YOUR_TURN] = "The computer is to move (Enter: move now)",
                    [T_GAME_OVER_KEYS] = "The game is over: n for a new game",
                    [T_NOTHING_TO_UNDO] = "Nothing to undo",
                    [T_NOTHING_TO_REDO] = "Nothing to redo",
                    [T_NO_HINT_NOW] = "No hint now",
                    [T_BAD_POINT] = "Not a point: %s",
                    [T_TYPE_PROMPT] = "Move (e.g. h8): ",
                    [T_RESIGN_ASK] = "Resign this game? (y/n)",
                    [T_RESIGN_NO_CVC] = "The computer plays both sides: nobody to resign for",
                    [T_RESUME_ASK] = "Resume it? (y/n)",
                    [T_RESUME_FOUND] = "An unfinished game was found:",
                    [T_RESUME_DESC] = "%s, %s %dx%d, %d moves",
                    [T_STORE_CANT_OPEN] = "The game store cannot be used:",
                    [T_STORE_FAILED] = "Saving stopped:",
                    [T_PLAYING_UNSAVED] = "The game plays on without saving.",
                    [T_PRESS_KEY] = "Press a key.",
                    [T_NEW_GAME] = "New game",
                    [T_MENU_MODE] = "Mode",
                    [T_MENU_SIDE] = "You play",
                    [T_MENU_RULE] = "Rule",
                    [T_MENU_SIZE] = "Board size",
                    [T_MENU_LEVEL] = "Level",
                    [T_MENU_TIME] = "Time a move",
                    [T_MENU_START] = "Start",
                    [T_MENU_HELP] = "up/down choose, left/right change, Enter start, Esc cancel",
                    [T_MENU_OPENING] = "Opening",
                    [T_OPENING_FREE] = "free",
                    [T_OPENING_SWAP] = "swap",
                    [T_OPENING_SWAP2] = "swap2",
                    [T_SWAP_PLACE3_YOU] = "Place the opening: stone %d of 3 (%s)",
                    [T_SWAP_PLACE3_HVH] = "First player places the opening: stone %d of 3 (%s)",
                    [T_SWAP_PLACE2_YOU] = "Place two more stones: stone %d of 2 (%s)",
                    [T_SWAP_PLACE2_HVH] = "Second player places two more: stone %d of 2 (%s)",
                    [T_SWAP_CHOOSE3] = "Choose: b take black, w take white, p place two more",
                    [T_SWAP_CHOOSE3_SWAP] = "Choose: b take black, w take white",
                    [T_SWAP_CHOOSE5] = "Five stones: b take black, w take white",
                    [T_SWAP_PROPOSING] = "The computer places the opening\xE2\x80\xA6 %.1fs",
                    [T_SWAP_CHOOSING] = "The computer chooses a colour\xE2\x80\xA6 %.1fs",
                    [T_CHOOSE_FIRST] = "Choose a colour first",
                    [T_SIDE_BLACK] = "black (moves first)",
                    [T_SIDE_WHITE] = "white (moves second)",
                    [T_SECONDS] = "%d s",
                    [T_SCOREBOARD] = "Scoreboard",
                    [T_SC_GAMES] = "games",
                    [T_SC_WON] = "won",
                    [T_SC_LOST] = "lost",
                    [T_SC_DRAWN] = "drawn",
                    [T_SC_BLACK] = "black",
                    [T_SC_WHITE] = "white",
                    [T_SCORE_EMPTY] = "No finished games yet.",
                    [T_SCORE_UNAVAILABLE] = "The scoreboard is not available:",
                    [T_TOO_SMALL] = "Terminal too small: need %dx%d",
                    [T_SAVED_BYE] = "The game is saved; run gomoku to resume it.",
                    [T_FORBID_33] = "double-three",
                    [T_FORBID_44] = "double-four",
                    [T_FORBID_OVERLINE] = "overline",
                    [T_MODE_HVC] = "you vs computer",
                    [T_MODE_HVH] = "two humans",
                    [T_MODE_CVC] = "computer vs computer",
                    [T_RULE_FREESTYLE] = "freestyle",
                    [T_RULE_STANDARD] = "standard",
                    [T_RULE_RENJU] = "renju",
                    [T_RULE_CARO] = "caro",
                },
            [TUI_LANG_ZH] =
                {
                    [T_TITLE] = "五子棋",
                    [T_MODE] = "模式",
                    [T_RULE] = "规则",
                    [T_LEVEL] = "难度",
                    [T_BLACK] = "黑方",
                    [T_WHITE] = "白方",
                    [T_YOU] = "你",
                    [T_COMPUTER] = "电脑",
                    [T_PLAYER_BLACK] = "玩家一",
                    [T_PLAYER_WHITE] = "玩家二",
                    [T_MOVE_N] = "第 %d 手",
                    [T_MOVE_LAST] = "第 %d 手，上一手 %s",
                    [T_LABEL] = "%s：%s",
                    [T_RESULT] = "%s：%s。%s",
                    [T_CURSOR] = "光标 %s",
                    [T_NOT_SAVING] = "未保存",
                    [T_SAVING] = "已保存为第 %lld 局",
                    [T_KEYS] = "按键",
                    [T_KEY_MOVE] = "方向键 hjkl 移动",
                    [T_KEY_PLACE] = "回车 空格 落子",
                    [T_KEY_TYPE] = ":h8 回车 下在 h8",
                    [T_KEY_UNDO] = "u 悔棋  U 重做",
                    [T_KEY_HINT] = "? 提示 w 为什么 r 认输",
                    [T_KEY_NEW] = "n 新局 s 战绩 P 习题",
                    [T_KEY_QUIT] = "q 退出（保留棋局）",
                    [T_KEY_NOW] = "回车 立即落子",
                    [T_TO_MOVE_YOU] = "轮到%s（你）",
                    [T_TO_MOVE] = "轮到%s",
                    [T_THINKING] = "%s（电脑）思考中… %.1f秒",
                    [T_THINKING_HINT] = "回车：立即落子",
                    [T_HINTING] = "正在找提示… %.1f秒",
                    [T_HINT_AT] = "提示：%s（标记为 ?）",
                    [T_WINS] = "%s胜",
                    [T_DRAW] = "和棋",
                    [T_BY_FIVE] = "五连 %s-%s",
                    [T_BY_FORBIDDEN] = "黑方下了禁手 %s（%s）",
                    [T_BY_RESIGN] = "%s认输",
                    [T_BY_FULL] = "棋盘已满",
                    [T_BY_NO_POINT] = "黑方已无可下之点",
                    [T_YOU_WIN] = "你赢了！",
                    [T_YOU_LOSE] = "你输了。",
                    [T_OVER_KEYS] = "n：新局",
                    [T_OCCUPIED] = "%s 已有棋子",
                    [T_FORBIDDEN_POINT] = "%s 是黑方禁手（%s）；再落一次即下在此处并判负",
                    [T_NOT_YOUR_TURN] = "轮到电脑（回车：立即落子）",
                    [T_GAME_OVER_KEYS] = "本局已结束：按 n 开新局",
                    [T_NOTHING_TO_UNDO] = "没有可悔的棋",
                    [T_NOTHING_TO_REDO] = "没有可重做的棋",
                    [T_NO_HINT_NOW] = "现在不能提示",
                    [T_BAD_POINT] = "不是棋盘上的点：%s",
                    [T_TYPE_PROMPT] = "落子（如 h8）：",
                    [T_RESIGN_ASK] = "认输吗？(y/n)",
                    [T_RESIGN_NO_CVC] = "电脑对战中没有人可以认输",
                    [T_RESUME_ASK] = "继续这局吗？(y/n)",
                    [T_RESUME_FOUND] = "有一局未下完：",
                    [T_RESUME_DESC] = "%s，%s %dx%d，%d 手",
                    [T_STORE_CANT_OPEN] = "无法使用棋局数据库：",
                    [T_STORE_FAILED] = "停止保存：",
                    [T_PLAYING_UNSAVED] = "可以继续下棋，但不会保存。",
                    [T_PRESS_KEY] = "按任意键继续。",
                    [T_NEW_GAME] = "新局",
                    [T_MENU_MODE] = "模式",
                    [T_MENU_SIDE] = "你执",
                    [T_MENU_RULE] = "规则",
                    [T_MENU_SIZE] = "棋盘大小",
                    [T_MENU_LEVEL] = "难度",
                    [T_MENU_TIME] = "每步时间",
                    [T_MENU_START] = "开始",
                    [T_MENU_HELP] = "上下 选择，左右 更改，回车 开始，Esc 取消",
                    [T_MENU_OPENING] = "开局规则",
                    [T_OPENING_FREE] = "自由开局",
                    [T_OPENING_SWAP] = "交换（swap）",
                    [T_OPENING_SWAP2] = "二次交换（swap2）",
                    [T_SWAP_PLACE3_YOU] = "摆开局：第 %d 子，共 3 子（%s）",
                    [T_SWAP_PLACE3_HVH] = "先手方摆开局：第 %d 子，共 3 子（%s）",
                    [T_SWAP_PLACE2_YOU] = "再摆两子：第 %d 子，共 2 子（%s）",
                    [T_SWAP_PLACE2_HVH] = "后手方再摆两子：第 %d 子，共 2 子（%s）",
                    [T_SWAP_CHOOSE3] = "请选择：b 执黑，w 执白，p 再摆两子",
                    [T_SWAP_CHOOSE3_SWAP] = "请选择：b 执黑，w 执白",
                    [T_SWAP_CHOOSE5] = "已摆五子：b 执黑，w 执白",
                    [T_SWAP_PROPOSING] = "电脑正在摆开局… %.1f秒",
                    [T_SWAP_CHOOSING] = "电脑正在选择颜色… %.1f秒",
                    [T_CHOOSE_FIRST] = "请先选择颜色",
                    [T_SIDE_BLACK] = "黑（先手）",
                    [T_SIDE_WHITE] = "白（后手）",
                    [T_SECONDS] = "%d 秒",
                    [T_SCOREBOARD] = "战绩",
                    [T_SC_GAMES] = "局数",
                    [T_SC_WON] = "胜",
                    [T_SC_LOST] = "负",
                    [T_SC_DRAWN] = "和",
                    [T_SC_BLACK] = "黑胜",
                    [T_SC_WHITE] = "白胜",
                    [T_SCORE_EMPTY] = "暂无已结束的对局。",
                    [T_SCORE_UNAVAILABLE] = "无法读取战绩：",
                    [T_TOO_SMALL] = "终端太小：至少需要 %dx%d",
                    [T_SAVED_BYE] = "棋局已保存；再次运行 gomoku 即可继续。",
                    [T_FORBID_33] = "三三",
                    [T_FORBID_44] = "四四",
                    [T_FORBID_OVERLINE] = "长连",
                    [T_MODE_HVC] = "人机对战",
                    [T_MODE_HVH] = "双人对战",
                    [T_MODE_CVC] = "电脑对战",
                    [T_RULE_FREESTYLE] = "无禁手",
                    [T_RULE_STANDARD] = "标准（恰好五连）",
                    [T_RULE_RENJU] = "连珠（黑有禁手）",
                    [T_RULE_CARO] = "卡罗",
                },
};

static bool is_zh(const char *v) {
    return v && (strncmp(v, "zh", 2) == 0 || strncmp(v, "ZH", 2) == 0);
}

bool tui_lang_choose(const char *option, tui_lang *out) {
    if (option) {
        if (strcmp(option, "en") == 0 || strncmp(option, "en_", 3) == 0) {
            *out = TUI_LANG_EN;
            return true;
        }
        if (is_zh(option)) {
            *out = TUI_LANG_ZH;
            return true;
        }
        return false;
    }
    /* the first variable that is set decides, as setlocale does */
    const char *vars[] = {"LC_ALL", "LC_MESSAGES", "LANG"};
    *out = TUI_LANG_EN;
    for (int i = 0; i < 3; i++) {
        const char *v = getenv(vars[i]);
        if (v && *v) {
            if (is_zh(v)) *out = TUI_LANG_ZH;
            break;
        }
    }
    return true;
}

const char *tui_tr(tui_lang lang, tui_text id) {
    if (lang < 0 || lang >= TUI_LANG_COUNT) lang = TUI_LANG_EN;
    if (id < 0 || id >= T_COUNT) return "";
    const char *t = texts[lang][id];
    if (!t) t = texts[TUI_LANG_EN][id];
    return t ? t : "";
}

const char *tui_rule_name(tui_lang lang, gmk_rule rule) {
    switch (rule) {
    case GMK_RULE_STANDARD: return tui_tr(lang, T_RULE_STANDARD);
    case GMK_RULE_RENJU: return tui_tr(lang, T_RULE_RENJU);
    case GMK_RULE_CARO: return tui_tr(lang, T_RULE_CARO);
    default: return tui_tr(lang, T_RULE_FREESTYLE);
    }
}

const char *tui_mode_name(tui_lang lang, gmk_play_mode mode) {
    switch (mode) {
    case GMK_PLAY_HVH: return tui_tr(lang, T_MODE_HVH);
    case GMK_PLAY_CVC: return tui_tr(lang, T_MODE_CVC);
    default: return tui_tr(lang, T_MODE_HVC);
    }
}

const char *tui_forbid_name(tui_lang lang, gmk_forbid_kind kind) {
    switch (kind) {
    case GMK_FORBID_DOUBLE_THREE: return tui_tr(lang, T_FORBID_33);
    case GMK_FORBID_DOUBLE_FOUR: return tui_tr(lang, T_FORBID_44);
    case GMK_FORBID_OVERLINE: return tui_tr(lang, T_FORBID_OVERLINE);
    default: return "";
    }
}

const char *tui_level_name(tui_lang lang, int level) {
    return lang == TUI_LANG_ZH ? gmk_level_name_zh(level) : gmk_level_name(level);
}
