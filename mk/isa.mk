# mk/isa.mk: the ISA coverage targets. `make isa-corpus` compiles the whole
# corpus of tests/isa_corpus/corpus.txt and every tests/**/*.cu to PTX
# (minutes; cached in BUILD/isa_corpus) and lints it (make test runs the
# `test` tier only). `make isa-forms-table` regenerates
# tests/isa_forms/forms.txt from the grammar with ptxas; `make isa-readme`
# rewrites README.md's coverage tables.
.PHONY: isa-corpus isa-forms-table
isa-corpus: $(BUILD)/smemu
	@sh tests/isa_corpus/test.sh $(BUILD) --full

isa-forms-table:
	python3 tests/isa_forms/forms.py table -o tests/isa_forms/forms.txt

# README.md's two coverage tables, from this build (compiles the full corpus)
.PHONY: isa-readme
isa-readme: $(BUILD)/smemu
	python3 tests/isa_forms/forms.py readme
	python3 tests/isa_corpus/corpus.py --smemu $(BUILD)/smemu --out $(BUILD)/isa_corpus --full \
	  --cutlass $(BUILD)/cutlass-wheel/cutlass_library/source --readme README.md
