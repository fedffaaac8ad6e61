# glyphaudit — the README's commands.
#   make audit   install what is missing, build in release, run glyphaudit on the built-in presets
#   make test    install what is missing, run every test
#   make bench   release-build benchmark: per-stage timings

SWIFT ?= swift
RELEASE := .build/release

.PHONY: audit test bench build setup embed clean

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

embed:
	scripts/embed-assets

clean:
	rm -rf .build glyphaudit-out glyphaudit-render
