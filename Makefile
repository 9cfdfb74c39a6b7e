# Thin wrappers around the Swift package manager.
PREFIX ?= /usr/local
SWIFT ?= swift

.PHONY: build run test golden bench release clean man install uninstall check-goldens

# Extra flags for the builds of man, install and check-goldens (e.g. --scratch-path DIR).
BUILDFLAGS ?=
BINDIR = $(DESTDIR)$(PREFIX)/bin
MAN1DIR = $(DESTDIR)$(PREFIX)/share/man/man1
BASHCOMPDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR = $(DESTDIR)$(PREFIX)/share/zsh/site-functions
FISHCOMPDIR = $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d

build:
	$(SWIFT) build

# The main job on the embedded data: the seed's rings as SVG on stdout (`make -s run >
# ring.svg`); the build's progress goes to stderr.
run:
	@$(SWIFT) build >&2
	@$(SWIFT) run --skip-build cvlayout ring -f svg

# Every test (Swift Testing): quiet on success, the whole log on failure (Scripts/test.sh).
test:
	@SWIFT="$(SWIFT)" ./Scripts/test.sh

# Re-record every golden file under Examples/ from the current build. (CVLAYOUT_RECORD is
# `--check`'s record mode; the test suite's switch is CVLAYOUT_RECORD_GOLDENS.)
golden:
	CVLAYOUT_RECORD_GOLDENS=1 $(SWIFT) test --disable-xctest --filter GoldenTests

# Release builds on Linux are fully static executables (the Swift runtime, Foundation and
# glibc linked in, no dynamic loader): a bigger binary, but start-up falls from about 5 ms with
# shared libraries (3 ms with only the Swift libraries static) to about 1.2 ms, which is most
# of a small layout's time. The linker's notes about mktemp and getpwnam come from
# Foundation's static libraries (functions cvlayout never calls): Scripts/release-build.sh
# leaves them out of what the build shows. Elsewhere (macOS: Darwin links no static
# executables, and its Swift runtime is the system's) a plain release build. Both build with
# cross-module optimisation: the writers, readers and diff call the FastText target's buffers
# and number parsing, which inline across the targets only then (without it `--check` of a
# million elements takes about 12% longer).
UNAME_S := $(shell uname -s)
ifeq ($(UNAME_S),Linux)
RELEASEFLAGS ?= --static-swift-stdlib -Xswiftc -static-executable -Xswiftc -cross-module-optimization
else
RELEASEFLAGS ?= -Xswiftc -cross-module-optimization
endif

release:
	SWIFT="$(SWIFT)" ./Scripts/release-build.sh $(RELEASEFLAGS)

bench: release
	./Scripts/bench.sh

clean:
	rm -rf .build

# The manual page, generated from the option table. cvlayout.1 is committed; a test checks
# that it is up to date.
man:
	$(SWIFT) build $(BUILDFLAGS)
	"$$($(SWIFT) build $(BUILDFLAGS) --show-bin-path)/cvlayout" manpage > cvlayout.1.tmp
	mv cvlayout.1.tmp cvlayout.1

# The release binary (stripped), its manual page and the bash, zsh and fish completions, under PREFIX
# (default /usr/local; DESTDIR is honoured for packaging).
install:
	SWIFT="$(SWIFT)" ./Scripts/release-build.sh $(RELEASEFLAGS) $(BUILDFLAGS)
	@set -e; bin="$$($(SWIFT) build -c release $(RELEASEFLAGS) $(BUILDFLAGS) --show-bin-path)/cvlayout"; \
	tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	"$$bin" manpage > "$$tmp/cvlayout.1"; \
	"$$bin" completions bash > "$$tmp/cvlayout.bash"; \
	"$$bin" completions zsh > "$$tmp/_cvlayout"; \
	"$$bin" completions fish > "$$tmp/cvlayout.fish"; \
	install -d "$(BINDIR)" "$(MAN1DIR)" "$(BASHCOMPDIR)" "$(ZSHCOMPDIR)" "$(FISHCOMPDIR)"; \
	install -m 755 -s "$$bin" "$(BINDIR)/cvlayout"; \
	install -m 644 "$$tmp/cvlayout.1" "$(MAN1DIR)/cvlayout.1"; \
	install -m 644 "$$tmp/cvlayout.bash" "$(BASHCOMPDIR)/cvlayout"; \
	install -m 644 "$$tmp/_cvlayout" "$(ZSHCOMPDIR)/_cvlayout"; \
	install -m 644 "$$tmp/cvlayout.fish" "$(FISHCOMPDIR)/cvlayout.fish"; \
	echo "installed $(BINDIR)/cvlayout, its manual page and completions"

uninstall:
	rm -f "$(BINDIR)/cvlayout" "$(MAN1DIR)/cvlayout.1" "$(BASHCOMPDIR)/cvlayout" \
	      "$(ZSHCOMPDIR)/_cvlayout" "$(FISHCOMPDIR)/cvlayout.fish"

# The CI example (README, "Using cvlayout in CI"): every example checked against its goldens with --check.
# CHECK_GOLDENS_FLAGS passes the script's options (--artifacts DIR, --record MODE, --junit FILE).
CHECK_GOLDENS_FLAGS ?=
check-goldens:
	$(SWIFT) build $(BUILDFLAGS)
	CVLAYOUT="$$($(SWIFT) build $(BUILDFLAGS) --show-bin-path)/cvlayout" ./Examples/ci/check-goldens.sh $(CHECK_GOLDENS_FLAGS) Examples

# libFuzzer targets (Fuzz/): the dataset decoder and the whole command line, built with
# swiftc -sanitize=fuzzer,address into .build/fuzz and run FUZZ_SECONDS each. fuzz-ci is
# the short run CI does after the tests: a fixed number of inputs from the committed seeds
# with a fixed seed, about half a minute each here.
FUZZ_SECONDS ?= 300
.PHONY: fuzz fuzz-build fuzz-ci
fuzz-build:
	./Fuzz/build.sh .build/fuzz

fuzz: fuzz-build
	./Fuzz/run.sh $(FUZZ_SECONDS) .build/fuzz

fuzz-ci: fuzz-build
	FUZZ_RUNS="DecoderFuzz=1500000,CommandLineFuzz=250000" ./Fuzz/run.sh 60 .build/fuzz
