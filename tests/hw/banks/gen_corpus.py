#!/usr/bin/env python3
"""gen_corpus.py: writes the bank-conflict corpus for recording on a GPU.

Produces, next to this script:
  corpus.cu   one CUDA program; every case is its own single-warp kernel
              (extern "C", 1 block of 32 threads) that executes exactly one
              shared-memory instruction of interest (two for the if/else and
              merge cases, see below), so the Nsight Compute counts of each
              kernel are exact.
  corpus.tsv  what each kernel does, in the form the C test feeds to the bank
              model: one line per PTX-level warp instruction.

Addresses are byte offsets from the start of the kernel's shared array, which
is declared __align__(1024); the program prints the array's shared address
per kernel (on sm_90 it is 0x400, after the 1 KB the system reserves), so a
bank computed from the offset is the bank of the real address.

Every address comes from a table in global memory, so ptxas cannot fold it;
the instruction itself is inline PTX in `asm volatile`, and its result is
written to global memory.  ptxas still merges two adjacent 4-byte ld.shared
of one thread into one LDS.64 when it can prove 8-byte alignment (seen with
CUDA 13.0): the `merge_*` kernels do that on purpose and carry both forms in
corpus.tsv ("ptx" lines: what the emulator sees; "sass" lines: what the
hardware runs).  The test picks the form whose instruction count matches the
recording.

Standard library only.  Run: python3 tests/hw/banks/gen_corpus.py
"""
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
ROW = 128        # u32 words of table per case: A[32], B[32], value, mask, cmp
OUTROW = 132     # u32 words of output per case: 4 per lane + base
SMEM_BYTES = 32768
ALIGN = 1024

cases = []


def add(name, op, ptx, nbytes, offs, guard="all", mask=None, offs_b=None,
        note="", merge=None):
    """Register one kernel.

    op      'ld' | 'st' | 'atom' (the counter family it must hit)
    ptx     key of BODIES below (the PTX instruction)
    nbytes  bytes one lane accesses (1, 2, 4, 8, 16)
    offs    32 byte offsets from the array start (lane order)
    guard   'all' (every lane), 'mask' (bit lane of `mask`, read from the
            table at run time), or ('expr', C expression over `lane`,
            python predicate) for a literal branch; ('ifelse', expr, pred)
            runs `ptx` at offs where the predicate holds and again at offs_b
            where it does not (two instructions).
    merge   None, or ('ld2'|'ld4'|'st2'|'nomerge') for ptxas-merge cases
    """
    assert len(offs) == 32
    for o in offs:
        assert 0 <= o and o + nbytes <= SMEM_BYTES and o % nbytes == 0, (name, o)
    if guard == "all":
        m = 0xFFFFFFFF
    elif guard == "mask":
        m = mask
    else:
        m = sum(1 << l for l in range(32) if guard[2](l))
    assert m != 0
    assert all(c["name"] != name for c in cases), name
    cases.append(dict(name=name, op=op, ptx=ptx, nbytes=nbytes, offs=list(offs),
                      guard=guard, mask=m, offs_b=offs_b, note=note,
                      merge=merge))


L = range(32)


def stride(nbytes, s):
    return [l * s * nbytes for l in L]


# ---------------------------------------------------------------- u32 --------
# Strides 0..33, 64 and 128 words, loads and stores (Programming Guide,
# "32-Bit Strided Access": conflict-free only for odd strides).
for s in list(range(34)) + [64, 128]:
    add("ld_u32_s%d" % s, "ld", "ld.u32", 4, stride(4, s),
        note="u32 load, stride %d words" % s)
for s in list(range(34)) + [64, 128]:
    add("st_u32_s%d" % s, "st", "st.u32", 4, stride(4, s),
        note="u32 store, stride %d words" % s)

# Multicast: groups of G lanes share a word; the groups' words sit in one
# bank (same_bank) or in distinct banks (diff_bank).
for op, ptx in (("ld", "ld.u32"), ("st", "st.u32")):
    for g in (2, 4, 8, 16):
        add("%s_u32_mc%d_samebank" % (op, g), op, ptx, 4,
            [(l // g) * 128 for l in L],
            note="groups of %d lanes share a word; all words in bank 0" % g)
        add("%s_u32_mc%d_diffbank" % (op, g), op, ptx, 4,
            [(l // g) * 4 for l in L],
            note="groups of %d lanes share a word; words in distinct banks" % g)
    add("%s_u32_x16pairs" % op, op, ptx, 4, [(l % 16) * 4 for l in L],
        note="lane n and n^16 share a word")
    add("%s_u32_two_words_bank0" % op, op, ptx, 4,
        [0 if l % 2 == 0 else 128 for l in L],
        note="even lanes word 0, odd lanes word 32 (both bank 0)")

# Figure "Irregular Shared Memory Accesses" (middle): lanes 3,4,6,7,9 read
# one word of bank 5, the others a permutation of distinct banks.
rng = random.Random(20240905)
others = [b for b in range(32) if b != 5]
rng.shuffle(others)
offs = []
it = iter(others)
for l in L:
    offs.append(5 * 4 if l in (3, 4, 6, 7, 9) else next(it) * 4)
add("ld_u32_guide_multicast", "ld", "ld.u32", 4, offs,
    note="guide figure: lanes 3,4,6,7,9 share a word of bank 5")
# Permutations.
perm = list(range(32))
rng.shuffle(perm)
add("ld_u32_perm_row", "ld", "ld.u32", 4, [perm[l] * 4 for l in L],
    note="random permutation of one 128-byte row")
add("ld_u32_perm_rows", "ld", "ld.u32", 4,
    [(perm[l] + 32 * rng.randrange(64)) * 4 for l in L],
    note="distinct banks, random rows")
add("ld_u32_xor7", "ld", "ld.u32", 4, [(l ^ 7) * 4 for l in L],
    note="lane ^ 7")
add("ld_u32_reverse", "ld", "ld.u32", 4, [(31 - l) * 4 for l in L],
    note="reversed")
add("st_u32_perm_rows", "st", "st.u32", 4,
    [(perm[l] + 32 * rng.randrange(64)) * 4 for l in L],
    note="distinct banks, random rows")
# Random addresses with a fixed seed.
for i in range(8):
    add("ld_u32_rand%d" % i, "ld", "ld.u32", 4,
        [rng.randrange(4096) * 4 for l in L], note="random words")
for i in range(4):
    add("st_u32_rand%d" % i, "st", "st.u32", 4,
        [rng.randrange(4096) * 4 for l in L], note="random words")
# Random words with collisions forced (few distinct rows).
for i in range(2):
    add("ld_u32_randfew%d" % i, "ld", "ld.u32", 4,
        [(rng.randrange(32) + 32 * rng.randrange(3)) * 4 for l in L],
        note="random words from 3 rows (multicast and conflicts)")

# Partial masks (run-time mask from the table).
for m in (0x1, 0x80000000, 0x0000FFFF, 0xFFFF0000, 0x55555555, 0xAAAAAAAA,
          0x000000FF, 0x0F0F0F0F, 0x80000001):
    add("ld_u32_s1_m%08x" % m, "ld", "ld.u32", 4, stride(4, 1), "mask", m,
        note="stride 1, mask 0x%08x" % m)
for m in (0x3, 0xF, 0xFF, 0xFFFF, 0x55555555, 0x11111111, 0x80000001):
    add("ld_u32_s32_m%08x" % m, "ld", "ld.u32", 4, stride(4, 32), "mask", m,
        note="stride 32 (one bank), mask 0x%08x" % m)
add("ld_u32_s2_m0000ffff", "ld", "ld.u32", 4, stride(4, 2), "mask", 0xFFFF,
    note="stride 2, lanes 0-15")
add("ld_u32_s0_m00000011", "ld", "ld.u32", 4, stride(4, 0), "mask", 0x11,
    note="broadcast, two lanes")
for m in (0x1, 0x0000FFFF, 0x55555555):
    add("st_u32_s1_m%08x" % m, "st", "st.u32", 4, stride(4, 1), "mask", m,
        note="stride 1, mask 0x%08x" % m)
for m in (0xF, 0xFFFF):
    add("st_u32_s32_m%08x" % m, "st", "st.u32", 4, stride(4, 32), "mask", m,
        note="stride 32, mask 0x%08x" % m)
# Diverged lanes: a literal branch in the kernel.
DIV = [("lane & 4", lambda l: (l & 4) != 0, "and4"),
       ("lane < 7", lambda l: l < 7, "lt7"),
       ("lane % 3 == 0", lambda l: l % 3 == 0, "mod3"),
       ("(lane & 8) == 0", lambda l: (l & 8) == 0, "not8")]
for expr, pred, tag in DIV:
    add("ld_u32_s32_div_%s" % tag, "ld", "ld.u32", 4, stride(4, 32),
        ("expr", expr, pred), note="stride 32 under if (%s)" % expr)
    add("ld_u32_s2_div_%s" % tag, "ld", "ld.u32", 4, stride(4, 2),
        ("expr", expr, pred), note="stride 2 under if (%s)" % expr)
add("st_u32_s32_div_and4", "st", "st.u32", 4, stride(4, 32),
    ("expr", "lane & 4", lambda l: (l & 4) != 0), note="stride 32 under if")
# if/else: two instructions, each with half the lanes.
add("ld_u32_ifelse_odd", "ld", "ld.u32", 4, stride(4, 32),
    ("ifelse", "lane & 1", lambda l: (l & 1) != 0),
    offs_b=stride(4, 1), note="odd lanes stride 32, even lanes stride 1")
add("ld_u32_ifelse_half", "ld", "ld.u32", 4, stride(4, 2),
    ("ifelse", "lane < 16", lambda l: l < 16),
    offs_b=[l * 4 + 128 for l in L], note="halves, each conflict-free")

# ---------------------------------------------------------------- u8, u16 ----
for op in ("ld", "st"):
    p8, p16 = op + ".u8", op + ".u16"
    add("%s_u8_s1" % op, op, p8, 1, [l for l in L], note="bytes 0..31")
    add("%s_u8_s4" % op, op, p8, 1, [l * 4 for l in L], note="one byte per word")
    add("%s_u8_s128" % op, op, p8, 1, [l * 128 for l in L],
        note="32 words of bank 0")
    add("%s_u8_same" % op, op, p8, 1, [7] * 32, note="one byte")
    add("%s_u8_4perword_bank0" % op, op, p8, 1,
        [(l // 4) * 128 + l % 4 for l in L],
        note="4 lanes per word, 8 words in bank 0")
    add("%s_u16_s1" % op, op, p16, 2, [l * 2 for l in L], note="halves 0..31")
    add("%s_u16_s2" % op, op, p16, 2, [l * 4 for l in L], note="one half per word")
    add("%s_u16_s32" % op, op, p16, 2, [l * 64 for l in L],
        note="stride 64 bytes: 16 words per bank in banks 0 and 16")
    add("%s_u16_2perword_bank0" % op, op, p16, 2,
        [(l // 2) * 128 + (l % 2) * 2 for l in L],
        note="2 lanes per word, 16 words in bank 0")
add("ld_u8_s1_m0000000f", "ld", "ld.u8", 1, [l for l in L], "mask", 0xF,
    note="four bytes of one word")
add("ld_u8_s2", "ld", "ld.u8", 1, [l * 2 for l in L], note="every other byte")

# ---------------------------------------------------------------- 64-bit -----
def pairs(nb, f):
    return [f(l) * nb for l in L]


U64 = [
    ("s0", stride(8, 0), "all lanes one address"),
    ("s1", stride(8, 1), "stride 8 bytes"),
    ("s2", stride(8, 2), "stride 16 bytes"),
    ("s3", stride(8, 3), "stride 24 bytes"),
    ("s4", stride(8, 4), "stride 32 bytes"),
    ("s8", stride(8, 8), "stride 64 bytes"),
    ("s16", stride(8, 16), "stride 128 bytes (one bank pair)"),
    ("s32", stride(8, 32), "stride 256 bytes"),
    ("x1", pairs(8, lambda l: l >> 1), "lane n and n^1 share an address"),
    ("x2", pairs(8, lambda l: (l >> 2) * 2 + (l & 1)), "n and n^2 share"),
    ("x4", pairs(8, lambda l: (l >> 3) * 4 + (l & 3)), "n and n^4 share"),
    ("x8", pairs(8, lambda l: (l >> 4) * 8 + (l & 7)), "n and n^8 share"),
    ("x16", pairs(8, lambda l: l & 15), "n and n^16 share"),
    ("half_uniform", pairs(8, lambda l: l >> 4), "lanes 0-15 one address, 16-31 the next"),
    ("half_uniform_bank0", pairs(256, lambda l: l >> 4), "two addresses 256 B apart"),
    ("x1_s16", pairs(128, lambda l: l >> 1), "pairs n,n^1 share; 16 addresses in banks 0-1"),
    ("x1_s2", pairs(16, lambda l: l >> 1), "pairs n,n^1 share; stride 16 bytes"),
    ("quarter_uniform", pairs(8, lambda l: l >> 3), "8 lanes per address"),
]
for tag, offs, note in U64:
    add("ld_u64_%s" % tag, "ld", "ld.u64", 8, offs, note="u64 load: " + note)
for tag in ("s0", "s1", "s2", "s16", "x1", "x16", "half_uniform", "x1_s2"):
    offs, note = [(o, n) for t, o, n in U64 if t == tag][0]
    add("st_u64_%s" % tag, "st", "st.u64", 8, offs, note="u64 store: " + note)
for tag in ("s1", "s2", "x1", "half_uniform"):
    offs, note = [(o, n) for t, o, n in U64 if t == tag][0]
    add("ld_v2u32_%s" % tag, "ld", "ld.v2.u32", 8, offs, note="v2.u32 load: " + note)
add("st_v2u32_s1", "st", "st.v2.u32", 8, stride(8, 1), note="v2.u32 store, stride 8 B")
for m in (0x0000FFFF, 0xFFFF0000, 0x1, 0x00FF00FF, 0x55555555, 0x33333333,
          0x0000FF00):
    add("ld_u64_s1_m%08x" % m, "ld", "ld.u64", 8, stride(8, 1), "mask", m,
        note="u64 stride 8 B, mask 0x%08x" % m)
add("ld_u64_s16_m0000ffff", "ld", "ld.u64", 8, stride(8, 16), "mask", 0xFFFF,
    note="u64 stride 128 B, lanes 0-15")
add("ld_u64_x1_m0000ffff", "ld", "ld.u64", 8, pairs(8, lambda l: l >> 1),
    "mask", 0xFFFF, note="pairs, lanes 0-15")
for m in (0x0000FFFF, 0x55555555):
    add("st_u64_s1_m%08x" % m, "st", "st.u64", 8, stride(8, 1), "mask", m,
        note="u64 store stride 8 B, mask 0x%08x" % m)
for i in range(4):
    add("ld_u64_rand%d" % i, "ld", "ld.u64", 8,
        [rng.randrange(2048) * 8 for l in L], note="random 8-byte slots")
for i in range(2):
    add("st_u64_rand%d" % i, "st", "st.u64", 8,
        [rng.randrange(2048) * 8 for l in L], note="random 8-byte slots")

# ---------------------------------------------------------------- 128-bit ----
V4 = [
    ("s0", stride(16, 0), "all lanes one address"),
    ("s1", stride(16, 1), "stride 16 bytes"),
    ("s2", stride(16, 2), "stride 32 bytes"),
    ("s3", stride(16, 3), "stride 48 bytes"),
    ("s4", stride(16, 4), "stride 64 bytes"),
    ("s8", stride(16, 8), "stride 128 bytes"),
    ("s16", stride(16, 16), "stride 256 bytes"),
    ("s32", stride(16, 32), "stride 512 bytes"),
    ("forum_p1", pairs(32, lambda l: l & 15), "lanes n, n+16 share; stride 32 B"),
    ("forum_p2", pairs(32, lambda l: l >> 4), "lanes 0-15 at 0, 16-31 at 32"),
    ("x1", pairs(16, lambda l: l >> 1), "n and n^1 share"),
    ("x2", pairs(16, lambda l: (l >> 2) * 2 + (l & 1)), "n and n^2 share"),
    ("x4", pairs(16, lambda l: (l >> 3) * 4 + (l & 3)), "n and n^4 share"),
    ("x8", pairs(16, lambda l: (l >> 4) * 8 + (l & 7)), "n and n^8 share"),
    ("x16", pairs(16, lambda l: l & 15), "n and n^16 share"),
    ("x3", pairs(16, lambda l: (l >> 2) * 2 + (1 if (l & 3) in (1, 2) else 0)),
     "n and n^3 share"),
    ("quarter_uniform", pairs(16, lambda l: l >> 3), "8 lanes per address"),
    ("half_uniform", pairs(16, lambda l: l >> 4), "16 lanes per address"),
    ("x1_s2", pairs(32, lambda l: l >> 1), "pairs share; stride 32 B"),
    ("x1_s8", pairs(128, lambda l: l >> 1), "pairs share; stride 128 B"),
]
for tag, offs, note in V4:
    add("ld_v4_%s" % tag, "ld", "ld.v4.u32", 16, offs, note="v4 load: " + note)
for tag in ("s0", "s1", "s2", "s8", "forum_p2", "x1", "x2", "x16",
            "quarter_uniform", "half_uniform"):
    offs, note = [(o, n) for t, o, n in V4 if t == tag][0]
    add("st_v4_%s" % tag, "st", "st.v4.u32", 16, offs, note="v4 store: " + note)
for tag in ("s1", "s2", "x1"):
    offs, note = [(o, n) for t, o, n in V4 if t == tag][0]
    add("ld_f4_%s" % tag, "ld", "ld.v4.f32", 16, offs, note="float4 load: " + note)
for m in (0x000000FF, 0xFF00FF00, 0x1, 0x01010101, 0x0000FFFF, 0x55555555,
          0x0000000F, 0x80000000, 0x11111111, 0x000F000F):
    add("ld_v4_s1_m%08x" % m, "ld", "ld.v4.u32", 16, stride(16, 1), "mask", m,
        note="v4 stride 16 B, mask 0x%08x" % m)
add("ld_v4_s8_m000000ff", "ld", "ld.v4.u32", 16, stride(16, 8), "mask", 0xFF,
    note="v4 stride 128 B, lanes 0-7")
add("ld_v4_x1_m000000ff", "ld", "ld.v4.u32", 16, pairs(16, lambda l: l >> 1),
    "mask", 0xFF, note="pairs, lanes 0-7")
for m in (0x000000FF, 0x55555555, 0x01010101, 0x0000FFFF):
    add("st_v4_s1_m%08x" % m, "st", "st.v4.u32", 16, stride(16, 1), "mask", m,
        note="v4 store stride 16 B, mask 0x%08x" % m)
for i in range(4):
    add("ld_v4_rand%d" % i, "ld", "ld.v4.u32", 16,
        [rng.randrange(1024) * 16 for l in L], note="random 16-byte slots")
for i in range(2):
    add("st_v4_rand%d" % i, "st", "st.v4.u32", 16,
        [rng.randrange(1024) * 16 for l in L], note="random 16-byte slots")

# ---------------------------------------------------------------- atomics ----
ATOM = [
    ("s0", stride(4, 0), "all lanes one word"),
    ("s1", stride(4, 1), "distinct banks"),
    ("s2", stride(4, 2), "stride 2 words"),
    ("s32", stride(4, 32), "32 words of bank 0"),
    ("g2", [(l >> 1) * 4 for l in L], "pairs of lanes share a word"),
    ("g4", [(l >> 2) * 4 for l in L], "4 lanes per word"),
    ("g16", [(l >> 4) * 4 for l in L], "16 lanes per word"),
    ("two_words_bank0", [0 if l % 2 == 0 else 128 for l in L], "2 words, bank 0"),
    ("g2_samebank", [(l >> 1) * 128 for l in L], "pairs share; 16 words in bank 0"),
]
for tag, offs, note in ATOM:
    add("atom_add_%s" % tag, "atom", "atom.add.u32", 4, offs,
        note="atom.add.u32: " + note)
for m in (0x1, 0x3, 0x0000FFFF, 0x80000001):
    add("atom_add_s0_m%08x" % m, "atom", "atom.add.u32", 4, stride(4, 0),
        "mask", m, note="atom.add.u32 one word, mask 0x%08x" % m)
add("atom_add_s32_m0000000f", "atom", "atom.add.u32", 4, stride(4, 32), "mask",
    0xF, note="atom.add.u32 bank 0, 4 lanes")
for tag in ("s0", "s1", "s32", "g2"):
    offs, note = [(o, n) for t, o, n in ATOM if t == tag][0]
    add("red_add_%s" % tag, "atom", "red.add.u32", 4, offs,
        note="red.add.u32 (no return): " + note)
for tag in ("s0", "s1", "g2"):
    offs, note = [(o, n) for t, o, n in ATOM if t == tag][0]
    add("atom_cas_%s" % tag, "atom", "atom.cas.b32", 4, offs,
        note="atom.cas.b32: " + note)
    add("atom_exch_%s" % tag, "atom", "atom.exch.b32", 4, offs,
        note="atom.exch.b32: " + note)
# 64-bit: exch and cas are native ATOMS.*.64 on sm_90; atom.add.u64 (and
# atom.add.f32) on shared become an LDS + ATOMS.CAST.SPIN loop, so they are
# left out (their counts depend on contention).
add("atom_exch64_s1", "atom", "atom.exch.b64", 8, stride(8, 1),
    note="atom.exch.b64 stride 8 B")
add("atom_exch64_s0", "atom", "atom.exch.b64", 8, stride(8, 0),
    note="atom.exch.b64 one address")
add("atom_exch64_s16", "atom", "atom.exch.b64", 8, stride(8, 16),
    note="atom.exch.b64 stride 128 B")
add("atom_exch64_x1", "atom", "atom.exch.b64", 8, pairs(8, lambda l: l >> 1),
    note="atom.exch.b64, lanes n,n^1 share")
add("atom_cas64_s1", "atom", "atom.cas.b64", 8, stride(8, 1),
    note="atom.cas.b64 stride 8 B")
add("atom_max_s0", "atom", "atom.max.u32", 4, stride(4, 0),
    note="atom.max.u32 one word")
add("atom_max_s1", "atom", "atom.max.u32", 4, stride(4, 1),
    note="atom.max.u32 distinct banks")
for i in range(2):
    add("atom_add_rand%d" % i, "atom", "atom.add.u32", 4,
        [rng.randrange(64) * 4 for l in L], note="random words from 64")

# ---------------------------------------------------------------- ptxas merges
# Two (four) 4-byte ld.shared of one thread at +0/+4(/+8/+12), with the
# alignment visible to ptxas: it emits one LDS.64 (LDS.128).
add("merge_ld2_s1", "ld", "ld.u32", 4, stride(8, 1), merge="ld2",
    note="MERGE: 2 x ld.shared.u32 at +0,+4 (8-aligned), stride 8 B")
add("merge_ld2_x1", "ld", "ld.u32", 4, pairs(8, lambda l: l >> 1), merge="ld2",
    note="MERGE: 2 x ld.shared.u32, lanes n,n^1 share")
add("merge_ld2_s16", "ld", "ld.u32", 4, stride(8, 16), merge="ld2",
    note="MERGE: 2 x ld.shared.u32, stride 128 B")
add("merge_ld4_s1", "ld", "ld.u32", 4, stride(16, 1), merge="ld4",
    note="MERGE: 4 x ld.shared.u32 at +0..+12 (16-aligned), stride 16 B")
add("merge_st2_s1", "st", "st.u32", 4, stride(8, 1), merge="st2",
    note="MERGE: 2 x st.shared.u32 at +0,+4 (8-aligned), stride 8 B")
add("merge_none_s1", "ld", "ld.u32", 4, stride(8, 1), merge="nomerge",
    note="control: 2 x ld.shared.u32 at +0,+4, only 4-aligned (no merge)")


# ----------------------------------------------------------------- output ----
BODIES = {
    "ld.u8": 'asm volatile("ld.shared.u8 %0, [%1];" : "=r"(r0) : "r"(A) : "memory");',
    "ld.u16": 'asm volatile("ld.shared.u16 %0, [%1];" : "=r"(r0) : "r"(A) : "memory");',
    "ld.u32": 'asm volatile("ld.shared.u32 %0, [%1];" : "=r"(r0) : "r"(A) : "memory");',
    "ld.u64": '{ unsigned long long x; asm volatile("ld.shared.u64 %0, [%1];" : "=l"(x) : "r"(A) : "memory"); r0 = (unsigned)x; r1 = (unsigned)(x >> 32); }',
    "ld.v2.u32": 'asm volatile("ld.shared.v2.u32 {%0, %1}, [%2];" : "=r"(r0), "=r"(r1) : "r"(A) : "memory");',
    "ld.v4.u32": 'asm volatile("ld.shared.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(r0), "=r"(r1), "=r"(r2), "=r"(r3) : "r"(A) : "memory");',
    "ld.v4.f32": '{ float f0, f1, f2, f3; asm volatile("ld.shared.v4.f32 {%0, %1, %2, %3}, [%4];" : "=f"(f0), "=f"(f1), "=f"(f2), "=f"(f3) : "r"(A) : "memory"); r0 = __float_as_uint(f0); r1 = __float_as_uint(f1); r2 = __float_as_uint(f2); r3 = __float_as_uint(f3); }',
    "st.u8": 'asm volatile("st.shared.u8 [%0], %1;" :: "r"(A), "r"(v) : "memory"); r0 = 1;',
    "st.u16": 'asm volatile("st.shared.u16 [%0], %1;" :: "r"(A), "r"(v) : "memory"); r0 = 1;',
    "st.u32": 'asm volatile("st.shared.u32 [%0], %1;" :: "r"(A), "r"(v) : "memory"); r0 = 1;',
    "st.u64": 'asm volatile("st.shared.u64 [%0], %1;" :: "r"(A), "l"((unsigned long long)v * 3u) : "memory"); r0 = 1;',
    "st.v2.u32": 'asm volatile("st.shared.v2.u32 [%0], {%1, %2};" :: "r"(A), "r"(v), "r"(v + 1u) : "memory"); r0 = 1;',
    "st.v4.u32": 'asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};" :: "r"(A), "r"(v), "r"(v + 1u), "r"(v + 2u), "r"(v + 3u) : "memory"); r0 = 1;',
    "atom.add.u32": 'asm volatile("atom.shared.add.u32 %0, [%1], %2;" : "=r"(r0) : "r"(A), "r"(v) : "memory");',
    "red.add.u32": 'asm volatile("red.shared.add.u32 [%0], %1;" :: "r"(A), "r"(v) : "memory"); r0 = 1;',
    "atom.cas.b32": 'asm volatile("atom.shared.cas.b32 %0, [%1], %2, %3;" : "=r"(r0) : "r"(A), "r"(c), "r"(v) : "memory");',
    "atom.exch.b32": 'asm volatile("atom.shared.exch.b32 %0, [%1], %2;" : "=r"(r0) : "r"(A), "r"(v) : "memory");',
    "atom.max.u32": 'asm volatile("atom.shared.max.u32 %0, [%1], %2;" : "=r"(r0) : "r"(A), "r"(v) : "memory");',
    "atom.exch.b64": '{ unsigned long long x; asm volatile("atom.shared.exch.b64 %0, [%1], %2;" : "=l"(x) : "r"(A), "l"((unsigned long long)v) : "memory"); r0 = (unsigned)x; r1 = (unsigned)(x >> 32); }',
    "atom.cas.b64": '{ unsigned long long x; asm volatile("atom.shared.cas.b64 %0, [%1], %2, %3;" : "=l"(x) : "r"(A), "l"((unsigned long long)c), "l"((unsigned long long)v) : "memory"); r0 = (unsigned)x; r1 = (unsigned)(x >> 32); }',
}

MERGE_BODIES = {
    # address re-aligned so that ptxas can prove the alignment
    "ld2": ('const unsigned am = base + ((t[lane] >> 3) << 3);',
            'asm volatile("ld.shared.u32 %0, [%1];" : "=r"(r0) : "r"(am) : "memory");\n'
            '    asm volatile("ld.shared.u32 %0, [%1+4];" : "=r"(r1) : "r"(am) : "memory");'),
    "ld4": ('const unsigned am = base + ((t[lane] >> 4) << 4);',
            'asm volatile("ld.shared.u32 %0, [%1];" : "=r"(r0) : "r"(am) : "memory");\n'
            '    asm volatile("ld.shared.u32 %0, [%1+4];" : "=r"(r1) : "r"(am) : "memory");\n'
            '    asm volatile("ld.shared.u32 %0, [%1+8];" : "=r"(r2) : "r"(am) : "memory");\n'
            '    asm volatile("ld.shared.u32 %0, [%1+12];" : "=r"(r3) : "r"(am) : "memory");'),
    "st2": ('const unsigned am = base + ((t[lane] >> 3) << 3);',
            'asm volatile("st.shared.u32 [%0], %1;" :: "r"(am), "r"(v) : "memory");\n'
            '    asm volatile("st.shared.u32 [%0+4], %1;" :: "r"(am), "r"(v + 1u) : "memory"); r0 = 1;'),
    "nomerge": ('const unsigned am = base + ((t[lane] >> 2) << 2);',
                'asm volatile("ld.shared.u32 %0, [%1];" : "=r"(r0) : "r"(am) : "memory");\n'
                '    asm volatile("ld.shared.u32 %0, [%1+4];" : "=r"(r1) : "r"(am) : "memory");'),
}

HEAD = r'''// corpus.cu: GENERATED by gen_corpus.py; do not edit.
// Single-warp kernels, each executing one shared-memory instruction of
// interest, for recording Nsight Compute's bank counters (see record.sh).
// Build: nvcc -arch=sm_90 -O3 -lineinfo -o corpus corpus.cu
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define ROW %(ROW)d
#define OUTROW %(OUTROW)d
#define SMEM_BYTES %(SMEM)d
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%%s:%%d: %%s\n", __FILE__, __LINE__, cudaGetErrorString(e_)); \
  exit(1); } } while (0)

// t: this case's table row: t[0..31] byte offsets (first instruction),
// t[32..63] byte offsets (else branch), t[64] value, t[65] lane mask,
// t[66] compare value.  out: 4 words per lane, then the array's address.
#define PROLOGUE \
  __shared__ __align__(%(ALIGN)d) unsigned char smem[SMEM_BYTES]; \
  const unsigned lane = threadIdx.x; \
  const unsigned base = (unsigned)__cvta_generic_to_shared(smem); \
  const unsigned v = t[64] + lane; \
  const unsigned c = t[66]; \
  unsigned r0 = 0, r1 = 0, r2 = 0, r3 = 0; \
  (void)v; (void)c;
#define EPILOGUE \
  out[lane * 4 + 0] = r0; out[lane * 4 + 1] = r1; \
  out[lane * 4 + 2] = r2; out[lane * 4 + 3] = r3; \
  if (lane == 0) out[128] = base;

'''


def kernel_text(c):
    name = c["name"]
    s = ['extern "C" __global__ void __launch_bounds__(32)',
         '%s(const unsigned *__restrict__ t, unsigned *__restrict__ out)' % name,
         "{", "  PROLOGUE"]
    g = c["guard"]
    if c["merge"]:
        pre, body = MERGE_BODIES[c["merge"]]
        s.append("  " + pre)
        s.append("  {\n    " + body + "\n  }")
    else:
        body = BODIES[c["ptx"]]
        s.append("  const unsigned A0 = base + t[lane];")
        if g == "all":
            s.append("  {\n    " + body.replace("(A)", "(A0)") + "\n  }")
        elif g == "mask":
            s.append("  if ((t[65] >> lane) & 1u) {\n    " +
                     body.replace("(A)", "(A0)") + "\n  }")
        elif g[0] == "expr":
            s.append("  if (%s) {\n    %s\n  }" % (g[1], body.replace("(A)", "(A0)")))
        else:  # ifelse
            s.append("  const unsigned A1 = base + t[32 + lane];")
            s.append("  if (%s) {\n    %s\n  } else {\n    %s\n  }" %
                     (g[1], body.replace("(A)", "(A0)"),
                      body.replace("(A)", "(A1)")))
    s.append("  EPILOGUE")
    s.append("}")
    return "\n".join(s) + "\n"


def table_row(c):
    row = [0] * ROW
    row[0:32] = c["offs"]
    if c["offs_b"]:
        row[32:64] = c["offs_b"]
    row[64] = 0x1000
    row[65] = c["mask"]
    row[66] = 0x1000
    return row


def write_cu(path):
    out = [HEAD % dict(ROW=ROW, OUTROW=OUTROW, SMEM=SMEM_BYTES, ALIGN=ALIGN)]
    for c in cases:
        out.append("// %s\n" % c["note"])
        out.append(kernel_text(c))
        out.append("\n")
    out.append("typedef void (*kfn)(const unsigned *, unsigned *);\n")
    out.append("static const struct { const char *name; kfn fn; } cases[] = {\n")
    for c in cases:
        out.append('  {"%s", %s},\n' % (c["name"], c["name"]))
    out.append("};\n#define NCASES %d\n" % len(cases))
    out.append("static const unsigned table[NCASES][ROW] = {\n")
    for c in cases:
        out.append("  {" + ",".join(str(x) for x in table_row(c)) + "},\n")
    out.append("};\n\n")
    out.append(r'''int main(int argc, char **argv)
{
  unsigned *d_tab = 0, *d_out = 0;
  static unsigned h_out[NCASES][OUTROW];
  CHECK(cudaMalloc(&d_tab, sizeof table));
  CHECK(cudaMalloc(&d_out, sizeof h_out));
  CHECK(cudaMemcpy(d_tab, table, sizeof table, cudaMemcpyHostToDevice));
  CHECK(cudaMemset(d_out, 0, sizeof h_out));
  for (int i = 0; i < NCASES; i++) {
    cases[i].fn<<<1, 32>>>(d_tab + (size_t)i * ROW, d_out + (size_t)i * OUTROW);
    CHECK(cudaGetLastError());
  }
  CHECK(cudaDeviceSynchronize());
  CHECK(cudaMemcpy(h_out, d_out, sizeof h_out, cudaMemcpyDeviceToHost));
  // One line per kernel: name and the shared address of its array.
  for (int i = 0; i < NCASES; i++)
    printf("%s\t0x%x\n", cases[i].name, h_out[i][128]);
  return 0;
}
''')
    with open(path, "w") as f:
        f.write("".join(out))


def tsv_lines(c):
    """(form, op, bytes, mask, offsets) per warp instruction."""
    m = c["mask"]
    g = c["guard"]
    if c["merge"]:
        k = c["merge"]
        if k in ("ld2", "nomerge", "st2"):
            ptx = [("ptx", c["op"], 4, m, c["offs"]),
                   ("ptx", c["op"], 4, m, [o + 4 for o in c["offs"]])]
            sass = [("sass", c["op"], 8, m, c["offs"])] if k != "nomerge" else []
            return ptx + sass
        if k == "ld4":
            ptx = [("ptx", c["op"], 4, m, [o + 4 * j for o in c["offs"]])
                   for j in range(4)]
            return ptx + [("sass", c["op"], 16, m, c["offs"])]
    if isinstance(g, tuple) and g[0] == "ifelse":
        mb = (~m) & 0xFFFFFFFF
        return [("all", c["op"], c["nbytes"], m, c["offs"]),
                ("all", c["op"], c["nbytes"], mb, c["offs_b"])]
    return [("all", c["op"], c["nbytes"], m, c["offs"])]


def write_tsv(path):
    with open(path, "w") as f:
        f.write("# corpus.tsv: GENERATED by gen_corpus.py; do not edit.\n")
        f.write("# One line per PTX-level warp instruction of each kernel in corpus.cu.\n")
        f.write("# Addresses are byte offsets from the kernel's shared array, which is\n")
        f.write("# %d-byte aligned (its shared address is printed by the program).\n" % ALIGN)
        f.write("# form: all = both views; ptx = what PTX says (and the emulator sees);\n")
        f.write("#       sass = what ptxas emitted instead (merged loads/stores).\n")
        f.write("# kernel\tform\top\tbytes\tmask\taddresses(32, comma-separated)\tnote\n")
        for c in cases:
            for form, op, nb, m, offs in tsv_lines(c):
                f.write("%s\t%s\t%s\t%d\t0x%08x\t%s\t%s\n" % (
                    c["name"], form, op, nb, m, ",".join(str(o) for o in offs),
                    c["note"]))


if __name__ == "__main__":
    write_cu(os.path.join(HERE, "corpus.cu"))
    write_tsv(os.path.join(HERE, "corpus.tsv"))
    print("corpus: %d kernels" % len(cases))
