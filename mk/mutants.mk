# mk/mutants.mk: `make mutants` applies each small source mutation of
# tests/mutants/list.txt to a scratch copy of the tree (build/mutants/,
# never the working tree), rebuilds there incrementally, runs the tests
# the list names for that file, and prints the kill rate per file and the
# surviving mutants (tests/mutants/run.sh; README in tests/mutants/).
.PHONY: mutants
mutants:
	@sh tests/mutants/run.sh

# In the scratch copies only (run.sh sets MUTANTS_FASTLINK=1): a test
# program is compiled once and only relinked after each mutation, instead
# of recompiling its source with every new library. This rule's stem is
# shorter than the Makefile's $(BUILD)/tests/%, so it wins there.
ifdef MUTANTS_FASTLINK
T_COMMON_OBJ := $(T_COMMON:tests/common/%.c=$(BUILD)/mobj/common/%.o)
T_UNIT_OBJ := $(T_SRC:tests/unit/%.c=$(BUILD)/mobj/unit/%.o)
$(T_COMMON_OBJ): $(BUILD)/mobj/common/%.o: tests/common/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/common -c $< -o $@
$(T_UNIT_OBJ): $(BUILD)/mobj/unit/%.o: tests/unit/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/common -c $< -o $@
$(BUILD)/tests/test_%: $(BUILD)/mobj/unit/test_%.o $(T_COMMON_OBJ) $(LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $< $(T_COMMON_OBJ) $(LIB) $(LDLIBS) -lcmocka
endif
