#!/usr/bin/env python3
"""ncu2vectors.py LDSM_OUT NCU_CSV: the per-launch shared-memory counters of
record.sh's ncu run, one line per case of ldsm.out (launches are in the same
order): name, then ld instructions, ld wavefronts, ld bank conflicts, st
instructions, st wavefronts, st bank conflicts, ld requests, st requests,
ldsm instructions (as ncu names them below)."""
import csv, sys
cases = [l.split()[1] for l in open(sys.argv[1]) if l.startswith('case ')]
rows = [r for r in csv.reader(l for l in open(sys.argv[2]) if l.startswith('"'))]
head, rows = rows[0], rows[1:]
ID, MN, MV = head.index('ID'), head.index('Metric Name'), head.index('Metric Value')
launch = {}
for r in rows:
    launch.setdefault(int(r[ID]), {})[r[MN]] = r[MV].replace(',', '')
cols = ['smsp__sass_inst_executed_op_shared_ld.sum', 'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum',
        'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum', 'smsp__sass_inst_executed_op_shared_st.sum',
        'l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum', 'l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum',
        'l1tex__t_requests_pipe_lsu_mem_shared_op_ld.sum', 'l1tex__t_requests_pipe_lsu_mem_shared_op_st.sum',
        'smsp__sass_inst_executed_op_ldsm.sum']
print('# case ' + ' '.join(c.split('__')[1].replace('.sum', '') for c in cols))
ids = sorted(launch)
if len(ids) != len(cases):
    sys.exit('%d launches for %d cases' % (len(ids), len(cases)))
for name, i in zip(cases, ids):
    print(name, ' '.join(launch[i].get(c, '-') for c in cols))
