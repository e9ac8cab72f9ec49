/* room_text.c: what a room takes as text (see room.h): display names, room codes, clocks,
 * and the names of statuses and events. UTF-8 is checked as RFC 3629 defines it (no overlong
 * forms, no surrogates, nothing past U+10FFFF). */
#include <stdio.h>
#include <string.h>

#include "game/room.h"

static const char CODE_ALPHABET[] = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"; /* 32: 5 bits each */

const char *const gmk_room_clock_presets[] = {"5+3", "10+5", "30+0", NULL};

static void put_err(char *err, size_t errlen, const char *msg) {
    if (err && errlen) snprintf(err, errlen, "%s", msg);
}

/* Decodes one UTF-8 character at s (n bytes left) into *cp; its length, or 0 when invalid. */
static int utf8_next(const unsigned char *s, size_t n, uint32_t *cp) {
    unsigned char c = s[0];
    int len;
    uint32_t v, min;
    if (c < 0x80) {
        *cp = c;
        return 1;
    } else if (c >= 0xC2 && c <= 0xDF) {
        len = 2, v = c & 0x1F, min = 0x80;
    } else if (c >= 0xE0 && c <= 0xEF) {
        len = 3, v = c & 0x0F, min = 0x800;
    } else if (c >= 0xF0 && c <= 0xF4) {
        len = 4, v = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if ((size_t)len > n) return 0;
    for (int i = 1; i < len; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        v = (v << 6) | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    *cp = v;
    return len;
}

/* Characters a name may not hold: controls (C0, DEL, C1), line and paragraph separators, and
 * the bidirectional controls that could make a name show as something else. */
static bool forbidden_char(uint32_t c) {
    return c < 0x20 || (c >= 0x7F && c <= 0x9F) || c == 0x2028 || c == 0x2029 ||
           (c >= 0x200E && c <= 0x200F) || (c >= 0x202A && c <= 0x202E) ||
           (c >= 0x2066 && c <= 0x2069) || c == 0xFEFF;
}

/* Characters that draw nothing: Unicode's White_Space (PropList.txt) and
 * Default_Ignorable_Code_Point (DerivedCoreProperties.txt, Unicode 15.0), which hold the
 * zero-width characters, the variation selectors, the tags and the Hangul fillers (U+3164,
 * U+FFA0...), and U+2800 BRAILLE PATTERN BLANK, which is neither but shows as a blank. A name
 * needs at least one character outside this set. */
static bool invisible_char(uint32_t c) {
    static const uint32_t ranges[][2] = {
        {0x0009, 0x000D}, {0x0020, 0x0020},   {0x0085, 0x0085},   {0x00A0, 0x00A0},
        {0x00AD, 0x00AD}, {0x034F, 0x034F},   {0x061C, 0x061C},   {0x115F, 0x1160},
        {0x1680, 0x1680}, {0x17B4, 0x17B5},   {0x180B, 0x180F},   {0x2000, 0x200F},
        {0x2028, 0x202F}, {0x205F, 0x206F},   {0x2800, 0x2800},   {0x3000, 0x3000},
        {0x3164, 0x3164}, {0xFE00, 0xFE0F},   {0xFEFF, 0xFEFF},   {0xFFA0, 0xFFA0},
        {0xFFF0, 0xFFF8}, {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0000, 0xE0FFF},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (c >= ranges[i][0] && c <= ranges[i][1]) return true;
    return false;
}

bool gmk_room_name_valid(const char *name, char *err, size_t errlen) {
    if (!name || !*name) {
        put_err(err, errlen, "a display name is needed");
        return false;
    }
    size_t n = strnlen(name, GMK_ROOM_NAME_MAX);
    if (n >= GMK_ROOM_NAME_MAX) {
        put_err(err, errlen, "the display name is too long");
        return false;
    }
    const unsigned char *s = (const unsigned char *)name;
    int chars = 0;
    bool blank = true;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        int len = utf8_next(s + i, n - i, &cp);
        if (len == 0) {
            put_err(err, errlen, "the display name is not valid UTF-8");
            return false;
        }
        if (forbidden_char(cp)) {
            put_err(err, errlen, "the display name holds a control character");
            return false;
        }
        if (!invisible_char(cp)) blank = false;
        i += (size_t)len;
        chars++;
    }
    if (chars > GMK_ROOM_NAME_CHARS) {
        put_err(err, errlen, "the display name is too long");
        return false;
    }
    if (blank) {
        put_err(err, errlen, "the display name has no visible character");
        return false;
    }
    return true;
}

/* The bidirectional formatting characters (Unicode's Bidi_Control property, PropList.txt) and
 * U+FEFF: a chat line loses them. */
static bool bidi_control(uint32_t c) {
    return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
           (c >= 0x2066 && c <= 0x2069) || c == 0xFEFF;
}

bool gmk_room_chat_clean(const char *text, char out[GMK_ROOM_CHAT_MAX], char *err, size_t errlen) {
    out[0] = '\0';
    if (!text) {
        put_err(err, errlen, "a chat line needs text");
        return false;
    }
    size_t n = strlen(text), o = 0, end = 0; /* end: after the last character that is no space */
    const unsigned char *s = (const unsigned char *)text;
    int chars = 0;
    bool blank = true;
    for (size_t i = 0; i < n;) {
        uint32_t cp;
        int len = utf8_next(s + i, n - i, &cp);
        if (len == 0) {
            put_err(err, errlen, "the chat line is not valid UTF-8");
            return false;
        }
        const unsigned char *from = s + i;
        i += (size_t)len;
        if (bidi_control(cp)) continue;
        if (forbidden_char(cp)) { /* controls and separators: a space */
            cp = ' ';
            from = (const unsigned char *)" ";
            len = 1;
        }
        if (cp == ' ' && o == 0) continue; /* spaces at the start */
        if (++chars > GMK_ROOM_CHAT_CHARS || o + (size_t)len >= GMK_ROOM_CHAT_MAX) {
            put_err(err, errlen, "the chat line is too long (140 characters at most)");
            out[0] = '\0';
            return false;
        }
        memcpy(out + o, from, (size_t)len);
        o += (size_t)len;
        if (cp != ' ') end = o;
        if (!invisible_char(cp)) blank = false;
    }
    out[end] = '\0';
    if (blank) {
        put_err(err, errlen, "the chat line has no visible character");
        out[0] = '\0';
        return false;
    }
    return true;
}

void gmk_room_code_make(const uint8_t random[GMK_ROOM_CODE_RANDOM],
                        char out[GMK_ROOM_CODE_LEN + 1]) {
    uint64_t v = 0;
    for (int i = 0; i < GMK_ROOM_CODE_RANDOM; i++) v = v << 8 | random[i];
    for (int i = 0; i < GMK_ROOM_CODE_LEN; i++) {
        out[i] = CODE_ALPHABET[v & 31];
        v >>= 5;
    }
    out[GMK_ROOM_CODE_LEN] = '\0';
}

bool gmk_room_code_normalize(const char *typed, char out[GMK_ROOM_CODE_LEN + 1]) {
    if (!typed) return false;
    int n = 0;
    for (const char *p = typed; *p; p++) {
        char c = *p;
        if (c == ' ' || c == '-') continue;
        if (c >= 'a' && c <= 'z') c = (char)(c - 'a' + 'A');
        if (c == '\0' || !strchr(CODE_ALPHABET, c) || n >= GMK_ROOM_CODE_LEN) return false;
        out[n++] = c;
    }
    out[n] = '\0';
    return n == GMK_ROOM_CODE_LEN;
}

/* Reads a decimal number of at most 3 digits at *p. */
static bool small_number(const char **p, int *out) {
    int v = 0, digits = 0;
    while (**p >= '0' && **p <= '9' && digits < 4) {
        v = v * 10 + (**p - '0');
        (*p)++;
        digits++;
    }
    if (digits == 0 || digits > 3) return false;
    *out = v;
    return true;
}

bool gmk_room_clock_parse(const char *text, int *minutes, int *increment_s) {
    if (!text) return false;
    if (strcmp(text, "none") == 0) {
        *minutes = 0;
        *increment_s = 0;
        return true;
    }
    const char *p = text;
    int m, s;
    if (!small_number(&p, &m) || *p++ != '+' || !small_number(&p, &s) || *p != '\0') return false;
    if (m < 1 || m > GMK_ROOM_CLOCK_MINUTES_MAX || s > GMK_ROOM_INCREMENT_MAX) return false;
    *minutes = m;
    *increment_s = s;
    return true;
}

bool gmk_room_config_valid(const gmk_room_config *cfg, char *err, size_t errlen) {
    if (!cfg) {
        put_err(err, errlen, "no room settings");
        return false;
    }
    if ((unsigned)cfg->rule >= GMK_RULE_COUNT) {
        put_err(err, errlen, "unknown rule");
        return false;
    }
    if (cfg->size < GMK_MIN_SIZE || cfg->size > GMK_MAX_SIZE) {
        put_err(err, errlen, "the board size must be 5 to 22");
        return false;
    }
    if ((unsigned)cfg->black > GMK_ROOM_BLACK_RANDOM) {
        put_err(err, errlen, "black is played by me, the friend, or at random");
        return false;
    }
    if ((unsigned)cfg->opening >= GMK_OPENING_COUNT) {
        put_err(err, errlen, "the opening is free, swap or swap2");
        return false;
    }
    if (cfg->clock_minutes < 0 || cfg->clock_minutes > GMK_ROOM_CLOCK_MINUTES_MAX ||
        cfg->increment_s < 0 || cfg->increment_s > GMK_ROOM_INCREMENT_MAX ||
        (cfg->clock_minutes == 0 && cfg->increment_s != 0)) {
        put_err(err, errlen, "the clock is 1 to 180 minutes plus 0 to 60 seconds a move");
        return false;
    }
    return true;
}

const char *gmk_room_status_name(gmk_room_status st) {
    switch (st) {
    case GMK_ROOM_OK: return "ok";
    case GMK_ROOM_BAD_REQUEST: return "bad request";
    case GMK_ROOM_NO_SEAT: return "not a player in this room";
    case GMK_ROOM_NOT_YOUR_TURN: return "not your turn";
    case GMK_ROOM_ILLEGAL: return "illegal move";
    case GMK_ROOM_NOT_NOW: return "not possible now";
    case GMK_ROOM_FULL: return "both seats are taken";
    case GMK_ROOM_NOT_FOUND: return "no such room";
    case GMK_ROOM_STORE: return "the store failed";
    case GMK_ROOM_NO_MEMORY: return "out of memory";
    }
    return "unknown status";
}

const char *gmk_room_event_name(int kind) {
    switch (kind) {
    case GMK_ROOM_EV_CREATED: return "created";
    case GMK_ROOM_EV_JOINED: return "joined";
    case GMK_ROOM_EV_STARTED: return "started";
    case GMK_ROOM_EV_MOVED: return "moved";
    case GMK_ROOM_EV_DRAW_OFFERED: return "draw-offered";
    case GMK_ROOM_EV_DRAW_DECLINED: return "draw-declined";
    case GMK_ROOM_EV_UNDO_ASKED: return "undo-asked";
    case GMK_ROOM_EV_UNDO_DECLINED: return "undo-declined";
    case GMK_ROOM_EV_UNDONE: return "undone";
    case GMK_ROOM_EV_OVER: return "over";
    case GMK_ROOM_EV_CONNECTION: return "connection";
    case GMK_ROOM_EV_SPECTATORS: return "spectators";
    case GMK_ROOM_EV_REMATCH_OFFERED: return "rematch-offered";
    case GMK_ROOM_EV_CHAT: return "chat";
    case GMK_ROOM_EV_MUTE: return "mute";
    case GMK_ROOM_EV_CHOSEN: return "chosen";
    default: return "unknown";
    }
}
