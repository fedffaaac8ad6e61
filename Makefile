# glyphaudit — the README's commands.
#   make audit   install what is missing, build in release, run glyphaudit on the built-in presets
#   make test    install what is missing, run every test
#   make bench   release-build benchmark: per-stage timings
#   make bench-peers  the shared peer benchmark (../shared/bench) with this build

SWIFT ?= swift
RELEASE := .build/release

.PHONY: audit test bench bench-peers build setup embed clean

setup:
	@scripts/setup

build: setup
	$(SWIFT) build -c release --product glyphaudit

audit: build
	$(RELEASE)/glyphaudit run

test: setup
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

bench: setup
	$(SWIFT) build -c release --product glyphbench
	$(SWIFT) build -c release --product glyphaudit
	$(RELEASE)/glyphbench

# The shared peer harness (../shared/bench; run its setup.sh once) with this build in the project slot.
bench-peers: build
	GLYPHAUDIT=$(abspath $(RELEASE)/glyphaudit) \
	GLYPHAUDIT_RENDER_CMD='"$$GLYPHAUDIT" render --svg-jobs "$$WL/jobs.tsv" --out "$$OUT"' \
	bash ../shared/bench/run.sh

embed:
	scripts/embed-assets

clean:
	rm -rf .build glyphaudit-out glyphaudit-render
