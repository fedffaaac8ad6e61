# glyphaudit — the README's commands.
#   make audit   install what is missing, build in release, run glyphaudit on the built-in presets
#   make test    install what is missing, run every test
#   make bench   release-build benchmark: per-stage timings
#   make bench-peers  the shared peer benchmark (PEER_BENCH: shared/bench beside the checkout) with this build
#   make fuzz    build the libFuzzer targets (AddressSanitizer) and fuzz each for FUZZ_TIME seconds
#   make fuzz-check   the sanitised fuzz build, each target briefly on its committed corpus
#   make test replays the committed fuzz corpus through the ordinary debug glyphfuzz (scripts/fuzz replay)

SWIFT ?= swift
RELEASE := .build/release
# Seconds per fuzz target: `make fuzz` (4 targets), and the short run of `make fuzz-check`;
# FUZZ_TARGETS limits both, and make test's replay, to some targets (json spec svg png pdf imageset report; empty: all).
FUZZ_TIME ?= 600
FUZZ_CHECK_TIME ?= 7
FUZZ_TARGETS ?=

.PHONY: audit test bench bench-peers build setup embed clean fuzz fuzz-check

setup:
	@scripts/setup

build: setup
	$(SWIFT) build -c release --product glyphaudit

# Exit status 1 means the presets have findings (they do: the seeds' own designs fall short);
# only bad input or a failure (2, 64) fails the target.
audit: build
	$(RELEASE)/glyphaudit run || [ $$? -eq 1 ]
	@echo "The report: glyphaudit-out/index.html"

# One debug build (with the tests) serves everything: the committed fuzz corpus is replayed through
# the debug glyphfuzz (scripts/fuzz replay; the sanitised libFuzzer build is make fuzz-check's)
# before the unit tests, so the test runner's summary stays the last line. The HTML report is opened
# in headless Chromium by two tests (CLIHTMLReportTests.browser: scripts/check-report with axe-core,
# the viewer by keyboard, a screenshot, and the filters' DOM; CLIReviewTests: tick two cause groups,
# run the accept command the page shows).
# The kill tests (and PortabilityTests) also run on the portable flushing path, the one macOS takes
# (an fsync per file and folder, no syncfs): everything is first built with GLYPHAUDIT_PORTABLE_SYNC=1
# and glyphaudit kept aside; the ordinary build after it recompiles only Sources/CGlyphSys and relinks.
# (Both builds are --build-tests builds: a plain `swift build` compiles the library without
# testability, and the tests' build would then compile all of it a second time.)
PORTABLE_SYNC_TESTS := killedRecord|staleTemporaryFiles|PortabilityTests
# The tests make and delete tens of thousands of small files in TMPDIR. On an ext4 file system without
# a journal (this project's CI machine) each new inode is looked for past every inode deleted in the
# last minute, reading the inode table as it goes: a fifth of the tests' time. So make test points
# TMPDIR at /dev/shm/glyphaudit-test-<uid> (a tmpfs, no such search) when /dev/shm is writable with
# 1 GiB free (the tests need about 30 MB at once and clean up after themselves); elsewhere TMPDIR
# stays as it is.
TEST_TMPDIR := $(shell [ -w /dev/shm ] && [ "$$(df -Pk /dev/shm 2>/dev/null | awk 'NR == 2 { print $$4 }')" -ge 1048576 ] 2>/dev/null && echo /dev/shm/glyphaudit-test-$$(id -u))
ifneq ($(TEST_TMPDIR),)
test: export TMPDIR := $(TEST_TMPDIR)
endif
test: setup
	$(if $(TEST_TMPDIR),@mkdir -p $(TEST_TMPDIR))
	@scripts/setup --browser
	scripts/check-targets
	GLYPHAUDIT_PORTABLE_SYNC=1 $(SWIFT) build --build-tests
	@mkdir -p .build/portable-sync && cp .build/debug/glyphaudit .build/portable-sync/glyphaudit
	$(SWIFT) build --build-tests
	scripts/fuzz replay $(FUZZ_TARGETS)
	@bash -o pipefail -c 'GLYPHAUDIT_BIN=$(abspath .build/portable-sync/glyphaudit) GLYPHAUDIT_EXPECT_PORTABLE_SYNC=1 \
	  $(SWIFT) test --skip-build --filter "$(PORTABLE_SYNC_TESTS)" 2>&1 | tee .build/test-portable-sync-output.txt'
	@! grep -E '^[^ ]+ (Test|Suite) ".*" skipped' .build/test-portable-sync-output.txt || \
	  { echo "make test: the tests above were skipped; scripts/setup --browser installs what they need" >&2; exit 1; }
	@bash -o pipefail -c '$(SWIFT) test --skip-build 2>&1 | tee .build/test-output.txt'
	@# A test that needs a tool skips itself without it (for a plain `swift test`); scripts/setup
	@# --browser installed them all, so under make test a skip is a failure, not a pass.
	@! grep -E '^[^ ]+ (Test|Suite) ".*" skipped' .build/test-output.txt || \
	  { echo "make test: the tests above were skipped; scripts/setup --browser installs what they need" >&2; exit 1; }
	@# Examples/Consumer, a package that depends on this one by path: built (in .build, reusing the
	@# objects above), tested (GlyphAuditTesting), and the plugin run on it.
	SWIFT=$(SWIFT) scripts/test-consumer

# docs/fuzzing.md. Findings: .build/fuzz/findings/TARGET/; `scripts/fuzz triage` groups them.
fuzz: setup
	scripts/fuzz run $(FUZZ_TIME) $(FUZZ_TARGETS)

fuzz-check: setup
	scripts/fuzz check $(FUZZ_CHECK_TIME) $(FUZZ_TARGETS)

bench: setup
	$(SWIFT) build -c release --product glyphbench
	$(SWIFT) build -c release --product glyphaudit
	$(RELEASE)/glyphbench

# The shared peer harness (PEER_BENCH, by default shared/bench in the folder above the checkout; run its
# setup.sh once) with this build in the project slot. Not part of make test.
PEER_BENCH ?= $(abspath ..)/shared/bench
bench-peers: build
	GLYPHAUDIT=$(abspath $(RELEASE)/glyphaudit) \
	GLYPHAUDIT_RENDER_CMD='"$$GLYPHAUDIT" render --svg-jobs "$$WL/jobs.tsv" --out "$$OUT"' \
	bash $(PEER_BENCH)/run.sh

embed:
	scripts/embed-assets
	scripts/embed-docs

clean:
	rm -rf .build glyphaudit-out glyphaudit-render
