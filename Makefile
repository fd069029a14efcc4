# For OpenBench and other tools that build engines with make: `make EXE=<path>` builds the
# release binary and puts it at <path> (./qiyi by default). OpenBench may also pass CC/CXX
# (for C engines) or EVALFILE (to embed a network); cargo needs neither, and qiyi's
# network comes from its own source tree.
EXE ?= qiyi
ifeq ($(OS),Windows_NT)
    BUILT := target/release/qiyi.exe
else
    BUILT := target/release/qiyi
endif

.PHONY: all clean
all:
	cargo build --release
	cp $(BUILT) $(EXE)

clean:
	cargo clean
