#!/usr/bin/env python3
"""ncu2vectors.py CSV > TSV: the k_banks launches of `tma banks` under ncu
(record.sh's banks_ncu.csv, or load_ncu.csv / store_ncu.csv) as one line
per launch in launch order: the launch index and the shared-memory
counters (requests, wavefronts, bank conflicts of loads and stores, data
bank reads and writes)."""
import csv, sys
cols = [("ld_req", "smsp__sass_inst_executed_op_shared_ld.sum"),
        ("ld_wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum"),
        ("ld_conf", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"),
        ("st_req", "smsp__sass_inst_executed_op_shared_st.sum"),
        ("st_wf", "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum"),
        ("st_conf", "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum"),
        ("bank_reads", "l1tex__data_bank_reads.sum"),
        ("bank_writes", "l1tex__data_bank_writes.sum")]
rows = {}
order = []
with open(sys.argv[1]) as f:
    lines = [l for l in f if l.startswith('"')]
for r in csv.DictReader(lines):
    i = int(r["ID"])
    if i not in rows:
        rows[i] = {}
        order.append(i)
    rows[i][r["Metric Name"]] = r["Metric Value"].replace(",", "")
print("\t".join(["launch"] + [c for c, _ in cols]))
for n, i in enumerate(order):
    print("\t".join([str(n)] + [rows[i].get(m, "-") for _, m in cols]))
