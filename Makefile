# gomoku: one binary (build/gomoku, also run as build/pbrain-gomoku) and its tests.
#   make            release build (optimised, portable, no -march=native)
#   make test       builds and runs every test
#   make BUILD=debug / BUILD=asan   assertions and board checks / sanitizers
#   make deps       installs missing Debian packages
#   OUT=dir         puts the build somewhere else (default build, build/debug, build/asan)
BUILD ?= release
MAKEFLAGS += -j2
CC ?= cc
PKGS := sqlite3 libpq ncursesw libmicrohttpd jansson libsodium
TEST_PKGS := criterion

ifeq ($(BUILD),release)
  OUT ?= build
  # -O3: the search runs about 16% more nodes a second than at -O2 with GCC 12 (the same
  # nodes and moves; docs/engine.md "Figures")
  OPT := -O3 -DNDEBUG
else ifeq ($(BUILD),debug)
  OUT ?= build/debug
  OPT := -O0 -g -DGMK_CHECK_BOARD
else ifeq ($(BUILD),asan)
  OUT ?= build/asan
  OPT := -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=undefined
else
  $(error BUILD must be release, debug or asan)
endif

# libunistring (user names: game/account.c) has no pkg-config file: found by its header.
LIBS_NOPC := -lunistring
HAVE_NOPC := $(shell printf '\043include <unicase.h>\n' | $(CC) -E - >/dev/null 2>&1 && echo yes)
HAVE_PKGS := $(shell pkg-config --exists $(PKGS) $(TEST_PKGS) 2>/dev/null && echo $(HAVE_NOPC))
ifneq ($(HAVE_PKGS),yes)
  ifeq ($(filter deps format format-check clean,$(MAKECMDGOALS)),)
    $(info deps: some libraries are missing; running make deps)
    DEPS_STATUS := $(shell sh scripts/deps.sh >&2 && echo ok)
    ifneq ($(DEPS_STATUS),ok)
      $(error deps: could not install the libraries; see above)
    endif
  endif
endif

PKG_CFLAGS := $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS := $(shell pkg-config --libs $(PKGS) 2>/dev/null)
TEST_CFLAGS := $(shell pkg-config --cflags $(TEST_PKGS) 2>/dev/null)
TEST_LIBS := $(shell pkg-config --libs $(TEST_PKGS) 2>/dev/null)

ifdef CI
  WERROR ?= -Werror
endif
WERROR ?=
CFLAGS_ALL := -std=c11 -D_GNU_SOURCE -Wall -Wextra $(WERROR) $(OPT) -pthread -Isrc $(PKG_CFLAGS) $(CFLAGS)
LDLIBS_ALL := $(PKG_LIBS) $(LIBS_NOPC) -pthread -lm $(LDLIBS)

LIB_SRC := $(wildcard src/core/*.c src/engine/*.c src/game/*.c src/store/*.c src/gomocup/*.c src/web/*.c src/tui/*.c)
CLI_SRC := $(wildcard src/cli/*.c)
TEST_SRC := $(wildcard tests/unit/*.c)
LIB_OBJ := $(LIB_SRC:%.c=$(OUT)/obj/%.o)
CLI_OBJ := $(CLI_SRC:%.c=$(OUT)/obj/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(OUT)/obj/%.o)
TEST_BINS := $(TEST_SRC:tests/unit/%.c=$(OUT)/tests/%)
WEB_ASSETS := $(wildcard web/*)

.PHONY: all test unit-tests deps format format-check clean bench
all: $(OUT)/gomoku $(OUT)/pbrain-gomoku

$(OUT)/libgmk.a: $(LIB_OBJ) $(OUT)/obj/gen/web_assets.o
	@mkdir -p $(@D)
	$(AR) rcs $@ $^

# The web page's files (web/*), embedded in the binary as a generated C table.
$(OUT)/gen/web_assets.c: $(WEB_ASSETS) $(wildcard web) tools/embed_assets.sh
	@mkdir -p $(@D)
	sh tools/embed_assets.sh $(sort $(WEB_ASSETS)) > $@.tmp && mv $@.tmp $@

$(OUT)/obj/gen/web_assets.o: $(OUT)/gen/web_assets.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -c -o $@ $<

$(OUT)/gomoku: $(CLI_OBJ) $(OUT)/libgmk.a
	$(CC) $(CFLAGS_ALL) -o $@ $(CLI_OBJ) $(OUT)/libgmk.a $(LDLIBS_ALL) $(LDFLAGS)

$(OUT)/pbrain-gomoku: $(OUT)/gomoku
	ln -sf gomoku $@

# One Criterion binary per tests/unit/test_*.c file.
$(OUT)/tests/%: $(OUT)/obj/tests/unit/%.o $(OUT)/libgmk.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -o $@ $< $(OUT)/libgmk.a $(TEST_LIBS) $(LDLIBS_ALL) $(LDFLAGS)

$(OUT)/obj/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) $(TEST_CFLAGS) -MMD -MP -c -o $@ $<

$(OUT)/obj/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(CFLAGS_ALL) -MMD -MP -c -o $@ $<

unit-tests: $(TEST_BINS)

# Every test: unit tests (Criterion) then the scripted suites, each against this build.
test: $(OUT)/gomoku $(OUT)/pbrain-gomoku $(OUT)/gendata $(OUT)/texel $(OUT)/policy $(OUT)/evalnet $(OUT)/winrate $(OUT)/judge $(OUT)/puzzles $(TEST_BINS)
	sh tests/run.sh $(OUT)

bench: $(OUT)/gomoku
	$(OUT)/gomoku bench --moves

deps:
	sh scripts/deps.sh

FORMAT_SRC = $(shell git ls-files '*.c' '*.h' 2>/dev/null)
format:
	clang-format -i $(FORMAT_SRC)
format-check:
	clang-format --dry-run --Werror $(FORMAT_SRC)

clean:
	rm -rf build

-include $(LIB_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d)

# bench/duel: two engine settings against each other in one process (see bench/duel.c).
$(OUT)/duel: bench/duel.c $(OUT)/libgmk.a
	$(CC) $(CFLAGS_ALL) -o $@ $< $(OUT)/libgmk.a $(LDLIBS_ALL) $(LDFLAGS)
duel: $(OUT)/duel

# make weights: refits the evaluation and the move-ordering policy of one rule (docs/engine.md,
# "Learned weights" and "Move-ordering policy"). Self-play games of the engine as built
# (tools/gendata.c), then the fits (tools/texel.c, tools/policy.c), which rewrite
# src/core/weights_$(WEIGHTS_RULE).c and src/engine/policy_$(WEIGHTS_RULE).c (freestyle or
# renju), and the evaluation network (tools/evalnet.c, fitted on top of the new linear weights,
# so the library is rebuilt first), src/engine/evalnet_$(WEIGHTS_RULE).c; rebuild and measure
# before committing them.
WEIGHTS_RULE ?= freestyle
WEIGHTS_GAMES ?= 6000
WEIGHTS_NODES ?= 8000
WEIGHTS_SEED ?= 4
WEIGHTS_FIT ?= --quiet --lambda 1
WEIGHTS_NET_FIT ?= --lambda 1
# the win rate (src/engine/winrate.h) is fitted last, to games of the engine with the new
# weights, policy and network, since it maps that engine's scores
WINRATE_GAMES ?= 1500
$(OUT)/gendata: tools/gendata.c $(OUT)/libgmk.a
	$(CC) $(CFLAGS_ALL) -o $@ $< $(OUT)/libgmk.a $(LDLIBS_ALL) $(LDFLAGS)
$(OUT)/texel: tools/texel.c tools/games.c tools/games.h $(OUT)/libgmk.a
	$(CC) $(CFLAGS_ALL) -o $@ tools/texel.c tools/games.c $(OUT)/libgmk.a $(LDLIBS_ALL) $(LDFLAGS)
$(OUT)/policy: tools/policy.c tools/games.c tools/games.h $(OUT)/libgmk.a
	$(CC) $(CFLAGS_ALL) -o $@ tools/policy.c tools/games.c $(OUT)/libgmk.a $(LDLIBS_ALL) $(LDFLAGS)
$(OUT)/winrate: tools/winrate.c tools/games.c tools/games.h $(OUT)/libgmk.a
	$(CC) $(CFLAGS_ALL) -o $@ tools/winrate.c tools/games.c $(OUT)/libgmk.a $(LDLIBS_ALL) $(LDFLAGS)
$(OUT)/puzzles: tools/puzzles.c tools/games.c tools/games.h $(OUT)/libgmk.a
	$(CC) $(CFLAGS_ALL) -o $@ tools/puzzles.c tools/games.c $(OUT)/libgmk.a $(LDLIBS_ALL) $(LDFLAGS)
$(OUT)/evalnet: tools/evalnet.c tools/games.c tools/games.h $(OUT)/libgmk.a
	$(CC) $(CFLAGS_ALL) -o $@ tools/evalnet.c tools/games.c $(OUT)/libgmk.a $(LDLIBS_ALL) $(LDFLAGS)
.PHONY: weights
weights: $(OUT)/gendata $(OUT)/texel $(OUT)/policy $(OUT)/winrate
	$(OUT)/gendata --rule $(WEIGHTS_RULE) --games $(WEIGHTS_GAMES) --nodes $(WEIGHTS_NODES) --seed $(WEIGHTS_SEED) > $(OUT)/weights-games.txt
	$(OUT)/texel --rule $(WEIGHTS_RULE) $(WEIGHTS_FIT) $(OUT)/weights-games.txt > $(OUT)/weights_$(WEIGHTS_RULE).c
	clang-format -i $(OUT)/weights_$(WEIGHTS_RULE).c
	mv $(OUT)/weights_$(WEIGHTS_RULE).c src/core/weights_$(WEIGHTS_RULE).c
	$(OUT)/policy --rule $(WEIGHTS_RULE) $(OUT)/weights-games.txt > $(OUT)/policy_$(WEIGHTS_RULE).c
	clang-format -i $(OUT)/policy_$(WEIGHTS_RULE).c
	mv $(OUT)/policy_$(WEIGHTS_RULE).c src/engine/policy_$(WEIGHTS_RULE).c
	$(MAKE) $(OUT)/evalnet
	$(OUT)/evalnet --rule $(WEIGHTS_RULE) $(WEIGHTS_NET_FIT) $(OUT)/weights-games.txt > $(OUT)/evalnet_$(WEIGHTS_RULE).c
	clang-format -i $(OUT)/evalnet_$(WEIGHTS_RULE).c
	mv $(OUT)/evalnet_$(WEIGHTS_RULE).c src/engine/evalnet_$(WEIGHTS_RULE).c
	$(MAKE) $(OUT)/gendata
	$(OUT)/gendata --rule $(WEIGHTS_RULE) --games $(WINRATE_GAMES) --nodes $(WEIGHTS_NODES) --seed $(WEIGHTS_SEED) > $(OUT)/winrate-games.txt
	$(OUT)/winrate --rule $(WEIGHTS_RULE) $(OUT)/winrate-games.txt > $(OUT)/winrate_$(WEIGHTS_RULE).c
	clang-format -i $(OUT)/winrate_$(WEIGHTS_RULE).c
	mv $(OUT)/winrate_$(WEIGHTS_RULE).c src/engine/winrate_$(WEIGHTS_RULE).c

# make puzzles: the shipped puzzle set (src/game/puzzles_data.c; docs/puzzles.md): self-play
# games of each rule (tools/gendata.c, 2 x PUZZLE_GAMES with the same seeds every time, so the
# same set), mined by
# tools/puzzles.c: fours and defence puzzles, then threes puzzles (ids from 200,000 and 300,000). Runs under nice 10: the machine is shared.
PUZZLE_GAMES ?= 500
PUZZLE_NODES ?= 8000
.PHONY: puzzles
puzzles: $(OUT)/gendata $(OUT)/puzzles
	for seed in 21 31; do nice -n 10 $(OUT)/gendata --rule freestyle --games $(PUZZLE_GAMES) --nodes $(PUZZLE_NODES) --seed $$seed; done > $(OUT)/puzzle-games-freestyle.txt
	for seed in 22 32; do nice -n 10 $(OUT)/gendata --rule renju --games $(PUZZLE_GAMES) --nodes $(PUZZLE_NODES) --seed $$seed; done > $(OUT)/puzzle-games-renju.txt
	nice -n 10 $(OUT)/puzzles --rule freestyle $(OUT)/puzzle-games-freestyle.txt > $(OUT)/puzzles-freestyle.txt
	nice -n 10 $(OUT)/puzzles --rule renju --first-id 100000 $(OUT)/puzzle-games-renju.txt > $(OUT)/puzzles-renju.txt
	nice -n 10 $(OUT)/puzzles --rule freestyle --threes --first-id 200000 $(OUT)/puzzle-games-freestyle.txt > $(OUT)/puzzles-threes-freestyle.txt
	nice -n 10 $(OUT)/puzzles --rule renju --threes --first-id 300000 $(OUT)/puzzle-games-renju.txt > $(OUT)/puzzles-threes-renju.txt
	$(OUT)/puzzles --emit $(OUT)/puzzles-freestyle.txt $(OUT)/puzzles-renju.txt $(OUT)/puzzles-threes-freestyle.txt $(OUT)/puzzles-threes-renju.txt > $(OUT)/puzzles_data.c
	clang-format -i $(OUT)/puzzles_data.c
	mv $(OUT)/puzzles_data.c src/game/puzzles_data.c

# bench/gen_tactics: finds positions for tests/data/tactics.txt (see bench/gen_tactics.c).
$(OUT)/gen_tactics: bench/gen_tactics.c $(OUT)/libgmk.a
	$(CC) $(CFLAGS_ALL) -o $@ $< $(OUT)/libgmk.a $(LDLIBS_ALL) $(LDFLAGS)

# Fuzzing (not part of `make test`; .ci/run runs it): one libFuzzer target per fuzz/fuzz_*.c,
# built with clang and linked with the sources it needs (compiled once for fuzzing into
# $(OUT)/fuzz/obj/). `make fuzz-run` runs each for FUZZ_SECONDS on its seed corpus
# (fuzz/corpus/<name without fuzz_>/), keeping new inputs in $(OUT)/fuzz/corpus/ and any crash
# in $(OUT)/fuzz/, and fails on the first finding. docs/testing.md says more.
FUZZ_CC ?= clang
FUZZ_SECONDS ?= 30
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=undefined
FUZZ_FLAGS := -std=c11 -D_GNU_SOURCE -g -O1 -fno-omit-frame-pointer $(FUZZ_SAN) -pthread -Isrc
FUZZ_SRC := $(wildcard fuzz/fuzz_*.c)
FUZZ_BINS := $(FUZZ_SRC:fuzz/%.c=$(OUT)/fuzz/%)
# everything but the store, the terminal, the web server and the game session (no libraries);
# the brain's swap2 needs the opening rules of game/swap.c
FUZZ_LIB_SRC := $(wildcard src/core/*.c src/engine/*.c src/gomocup/*.c) src/game/level.c \
  src/game/swap.c
FUZZ_LIB_OBJ := $(FUZZ_LIB_SRC:%.c=$(OUT)/fuzz/obj/%.o)
# fuzz_http runs the whole server in-process: it links the web server, the game, the store and
# the embedded page too, with libmicrohttpd, jansson and SQLite
FUZZ_WEB_SRC := $(filter-out src/game/level.c src/game/swap.c,$(wildcard src/web/*.c src/game/*.c \
  src/store/*.c))
FUZZ_WEB_OBJ := $(FUZZ_WEB_SRC:%.c=$(OUT)/fuzz/obj/%.o) $(OUT)/fuzz/obj/gen/web_assets.o

.PHONY: fuzz fuzz-run
fuzz: $(FUZZ_BINS)

$(OUT)/fuzz/obj/%.o: %.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(PKG_CFLAGS) -fsanitize=fuzzer-no-link -MMD -MP -c -o $@ $<

$(OUT)/fuzz/obj/gen/web_assets.o: $(OUT)/gen/web_assets.c
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(OUT)/fuzz/fuzz_http: fuzz/fuzz_http.c fuzz/fuzz_check.h $(FUZZ_LIB_OBJ) $(FUZZ_WEB_OBJ)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) $(PKG_CFLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJ) \
	  $(FUZZ_WEB_OBJ) $(PKG_LIBS) $(LIBS_NOPC) -lm

$(OUT)/fuzz/%: fuzz/%.c fuzz/fuzz_check.h $(FUZZ_LIB_OBJ)
	@mkdir -p $(@D)
	$(FUZZ_CC) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJ) -lm

fuzz-run: $(FUZZ_BINS)
	@for f in $(FUZZ_BINS); do \
	  name=$$(basename $$f); seeds=fuzz/corpus/$${name#fuzz_}; \
	  mkdir -p $(OUT)/fuzz/corpus/$$name; \
	  echo "== $$name ($(FUZZ_SECONDS) s)"; \
	  $$f -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -timeout=20 -rss_limit_mb=3072 \
	    -artifact_prefix=$(OUT)/fuzz/$$name- $(OUT)/fuzz/corpus/$$name $$seeds || exit 1; \
	done

-include $(FUZZ_LIB_OBJ:.o=.d) $(FUZZ_WEB_SRC:%.c=$(OUT)/fuzz/obj/%.d)

# bench/judge: the engine measured with another engine (Rapfi) as the judge: move loss at fixed
# nodes, depth and branching factor, and the evaluation's side-to-move bias, one-ply
# inconsistency and correlation with a deep search (see bench/judge.c, docs/engine.md).
$(OUT)/judge: bench/judge.c tools/games.c tools/games.h $(OUT)/libgmk.a
	$(CC) $(CFLAGS_ALL) -o $@ bench/judge.c tools/games.c $(OUT)/libgmk.a $(LDLIBS_ALL) $(LDFLAGS)
.PHONY: judge
judge: $(OUT)/judge
