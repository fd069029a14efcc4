"""The protocol fuzzer that `tools/fuzz_protocol.py` runs, a module per job; the table in
docs/fuzzing.md says which does what."""
