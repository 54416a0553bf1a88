#!/usr/bin/env python3
"""ncu2tsv.py: turns the Nsight Compute CSV of the example kernels
(scripts/gpu_record2.sh) into examples_banks.tsv: per kernel the shared
requests, wavefronts and bank conflicts of loads, stores and atomics."""
import csv, sys

COLS = [("ld", "smsp__sass_inst_executed_op_shared_ld.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
         "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
        ("st", "smsp__sass_inst_executed_op_shared_st.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
         "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
        ("atom", "smsp__sass_inst_executed_op_shared_atom.sum", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
         "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum")]

rows = [r for r in csv.reader(open(sys.argv[1]))]
start = next(i for i, r in enumerate(rows) if r and r[0] == "ID")
hdr = {h: i for i, h in enumerate(rows[start])}
kern = {}
for r in rows[start + 1:]:
    if len(r) < len(hdr):
        continue
    name = r[hdr["Kernel Name"]].split("(")[0]
    kern.setdefault((int(r[hdr["ID"]]), name), {})[r[hdr["Metric Name"]]] = int(r[hdr["Metric Value"]].replace(",", ""))
print("# kernel\tld_requests\tld_wavefronts\tld_conflicts\tst_requests\tst_wavefronts\tst_conflicts\t"
      "atom_requests\tatom_wavefronts\tatom_conflicts  (Nsight Compute 2025.3 on an H200)")
for (_, name), m in sorted(kern.items()):
    print("\t".join([name] + [str(m[c]) for _, *cs in COLS for c in cs]))
