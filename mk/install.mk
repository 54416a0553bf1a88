# mk/install.mk: `make install PREFIX=/usr/local DESTDIR=` and `make uninstall`.
#   PREFIX/bin/smemu                     the tool
#   PREFIX/lib/smemu/libcudart.so.13, libcuda.so.1 (+ .so links),
#     libnvJitLink.so.13 (mk/python.mk)
#                                        the drop-in runtime; an installed
#                                        smemu finds it from its own path
#                                        (../lib/smemu, tools/run_cmd.c)
#   PREFIX/include/smemu.h               the library's interface
#   PREFIX/lib/libsmemu.a, libsmemu.so.MAJOR.MINOR.PATCH (soname
#                                        libsmemu.so.MAJOR, + .so link)
#   PREFIX/lib/pkgconfig/smemu.pc
#   PREFIX/share/man/man1/smemu.1        made from `smemu help` (mk/manpage.sh)
#   PREFIX/share/doc/smemu/LICENSE, README.md
PREFIX  ?= /usr/local
DESTDIR ?=
SO_VER  := $(shell sed -n 's/^\#define SMEMU_VERSION "\(.*\)"/\1/p' include/smemu.h)
SO_MAJ  := $(firstword $(subst ., ,$(SO_VER)))
SO_LIB  := $(BUILD)/libsmemu.so.$(SO_VER)
MAN     := $(BUILD)/smemu.1
I_ROOT   = $(DESTDIR)$(PREFIX)

# Only the public interface (smemu_*) is exported.
$(SO_LIB): $(LIB_OBJ) mk/libsmemu.map
	$(CC) -shared -o $@ $(LIB_OBJ) -Wl,-soname,libsmemu.so.$(SO_MAJ) \
	  -Wl,--version-script=mk/libsmemu.map -Wl,-z,defs $(LDFLAGS) $(LDLIBS)
	ln -sf libsmemu.so.$(SO_VER) $(BUILD)/libsmemu.so.$(SO_MAJ)
	ln -sf libsmemu.so.$(SO_VER) $(BUILD)/libsmemu.so

$(MAN): $(BUILD)/smemu mk/manpage.sh
	sh mk/manpage.sh $(BUILD)/smemu $(SO_VER) > $@.tmp && mv $@.tmp $@


.PHONY: install uninstall
all: $(SO_LIB) $(MAN)
# (mk/runtime.mk, read after this file, has the rules of the runtime
# libraries.) smemu.pc is written here: its prefix is the one installed to
install: $(BUILD)/smemu $(BUILD)/runtime/libcudart.so.13 $(BUILD)/runtime/libcuda.so.1 $(BUILD)/runtime/libnvJitLink.so.13 $(LIB) $(SO_LIB) $(MAN)
	install -d $(I_ROOT)/bin $(I_ROOT)/lib/smemu $(I_ROOT)/lib/pkgconfig $(I_ROOT)/include \
	  $(I_ROOT)/share/man/man1 $(I_ROOT)/share/doc/smemu
	install -m 755 $(BUILD)/smemu $(I_ROOT)/bin/smemu
	install -m 755 $(BUILD)/runtime/libcudart.so.13 $(BUILD)/runtime/libcuda.so.1 $(BUILD)/runtime/libnvJitLink.so.13 \
	  $(I_ROOT)/lib/smemu/
	ln -sf libcudart.so.13 $(I_ROOT)/lib/smemu/libcudart.so
	ln -sf libcuda.so.1 $(I_ROOT)/lib/smemu/libcuda.so
	install -m 644 include/smemu.h $(I_ROOT)/include/smemu.h
	install -m 644 $(LIB) $(I_ROOT)/lib/libsmemu.a
	install -m 755 $(SO_LIB) $(I_ROOT)/lib/libsmemu.so.$(SO_VER)
	ln -sf libsmemu.so.$(SO_VER) $(I_ROOT)/lib/libsmemu.so.$(SO_MAJ)
	ln -sf libsmemu.so.$(SO_VER) $(I_ROOT)/lib/libsmemu.so
	printf '%s\n' 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' '' \
	  'Name: smemu' 'Description: CUDA kernels (PTX) on the CPU with a GPU shared-memory model' \
	  'Version: $(SO_VER)' 'Libs: -L$${libdir} -lsmemu' 'Libs.private: -lm -pthread $(JIT_LIBS)' \
	  'Cflags: -I$${includedir}' > $(I_ROOT)/lib/pkgconfig/smemu.pc
	install -m 644 $(MAN) $(I_ROOT)/share/man/man1/smemu.1
	install -m 644 LICENSE README.md $(I_ROOT)/share/doc/smemu/

# Removes what install put there and smemu's own folders; the standard
# folders (bin, include, ...) stay, as they may have been there before.
uninstall:
	rm -f $(I_ROOT)/bin/smemu $(I_ROOT)/include/smemu.h \
	  $(addprefix $(I_ROOT)/lib/smemu/,libcudart.so.13 libcudart.so libcuda.so.1 libcuda.so libnvJitLink.so.13) \
	  $(addprefix $(I_ROOT)/lib/,libsmemu.a libsmemu.so libsmemu.so.$(SO_MAJ) libsmemu.so.$(SO_VER)) \
	  $(I_ROOT)/lib/pkgconfig/smemu.pc $(I_ROOT)/share/man/man1/smemu.1 \
	  $(I_ROOT)/share/doc/smemu/LICENSE $(I_ROOT)/share/doc/smemu/README.md
	-rmdir $(I_ROOT)/lib/smemu $(I_ROOT)/share/doc/smemu 2>/dev/null

TEST_DEPS += $(SO_LIB) $(MAN)
