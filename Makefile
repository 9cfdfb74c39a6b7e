# Thin wrappers around the Swift package manager.
PREFIX ?= /usr/local
SWIFT ?= swift

.PHONY: build run test golden bench release clean

build:
	$(SWIFT) build

# The main job on the embedded data: the seed's rings as SVG.
run: build
	$(SWIFT) run --skip-build cvlayout ring -f svg

test:
	$(SWIFT) test

# Re-record every golden file under Examples/ from the current build.
golden:
	CVLAYOUT_RECORD=1 $(SWIFT) test --filter GoldenTests

release:
	$(SWIFT) build -c release

bench: release
	./Scripts/bench.sh

clean:
	rm -rf .build
