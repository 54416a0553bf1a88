#!/usr/bin/env python3
"""compact.py RESULTS_DIR: turns record.sh's raw output into the compact
vectors kept in recorded/ (the raw wgmma.out is ~10 MB):
  wgmma_rows.txt  per configuration: "cfg NAME m M n N k K trials T
                  threads NT scratch S", then per trial and group of 4
                  rows of D "TRIAL GROUP HASH": FNV-1a 64 of the group's
                  words in row order (each word as 4 little-endian
                  bytes); test_wgmma.c hashes smemu's rows the same way
  fp8_mma.txt     fp8 mma.sync: per config, trials 0..7, lane: the D words
  fp8_cvt.txt     per conversion and block of 64 inputs: FNV-1a 64 of the
                  results
The configuration list comes from gen_wgmma.py (as wgmma.cu was built)."""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import gen_wgmma as G

def fnv(words):
    h = 0xcbf29ce484222325
    for w in words:
        for k in range(4):
            h ^= (w >> (8 * k)) & 0xff
            h = (h * 0x100000001b3) & 0xffffffffffffffff
    return h

def main():
    res = sys.argv[1]
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'recorded')
    cfgs = {c.name: c for c in G.configs()}
    out = open(os.path.join(here, 'wgmma_rows.txt'), 'w')
    cur = None
    for line in open(os.path.join(res, 'wgmma.out')):
        p = line.split()
        if p[0] == 'cfg':
            c = cfgs[p[1]]
            if p[-1] != 'ok': sys.exit('%s: %s' % (p[1], line))
            M, N, K = int(p[3]), int(p[5]), int(p[7])
            nt = 128 * c.wgs
            dregs = N // 2 if c.td in ('f32', 's32') else N // 4
            out.write('cfg %s m %d n %d k %d trials %d threads %d scratch %d\n' % (p[1], M, N, K, c.trials, nt, nt * dregs))
        elif p[0] == 'trial':
            cur = int(p[1])
            grp = []
        elif p[0] == 'D':
            grp += [int(x, 16) for x in p[2:]]
            if int(p[1]) % 4 == 3:
                out.write('%d %d %016x\n' % (cur, int(p[1]) // 4, fnv(grp)))
                grp = []
    out.close()
    out = open(os.path.join(here, 'fp8_mma.txt'), 'w')
    for line in open(os.path.join(res, 'fp8_mma.out')):
        p = line.split()
        if p[0] == 'cfg': out.write(line)
        elif int(p[0]) < 8: out.write('%s %s %s\n' % (p[0], p[1], ' '.join(p[12:16])))
    out.close()
    rows = {}
    for line in open(os.path.join(res, 'fp8_cvt.out')):
        p = line.split()
        if len(p) != 5: continue
        rows.setdefault((int(p[0]), int(p[1]) // 64), []).append(int(p[4], 16))
    with open(os.path.join(here, 'fp8_cvt.txt'), 'w') as f:
        for (c, b), ws in sorted(rows.items()):
            f.write('%d %d %016x\n' % (c, b, fnv(ws)))

if __name__ == '__main__':
    main()
