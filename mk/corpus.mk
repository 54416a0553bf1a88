# mk/corpus.mk: `make corpus`, the whole third-party corpus (tests/corpus:
# Debian's thrust and cub examples, the cutlass wheel's SIMT examples)
# against its H200 recording; prints the table (tests/corpus/README.md).
# CORPUS_VERBOSE=1 lists every difference.
.PHONY: corpus
corpus: $(BUILD)/smemu
	CORPUS_VERBOSE=$(CORPUS_VERBOSE) sh tests/corpus/compare.sh $(BUILD)
