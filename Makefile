# For OpenBench and other tools that build engines with make: `make EXE=<path>` builds the
# release binary and puts it at <path> (./qiyi by default). OpenBench may also pass CC/CXX
# (for C engines) or EVALFILE (to embed a network); cargo needs neither, and qiyi's
# network comes from its own source tree. The binary is taken from cargo's target
# directory: $CARGO_TARGET_DIR when set, ./target otherwise.
EXE ?= qiyi
TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)
ifeq ($(OS),Windows_NT)
    BUILT := $(TARGET_DIR)/release/qiyi.exe
else
    BUILT := $(TARGET_DIR)/release/qiyi
endif

.PHONY: all clean
all:
	cargo build --release
	cp $(BUILT) $(EXE)

clean:
	cargo clean
