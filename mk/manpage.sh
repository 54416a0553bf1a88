#!/bin/sh
# manpage.sh SMEMU VERSION: writes the man page smemu(1) on stdout from the
# tool's own help texts (`smemu help`, `smemu help exec`, `smemu help run`),
# so the page and `smemu help` cannot disagree.
smemu=$1
ver=$2
# roff: backslashes doubled, a leading . or ' escaped, shown as typed (.nf)
esc() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }
main=$("$smemu" help) || exit 1
exec_help=$("$smemu" help exec) || exit 1
run_help=$("$smemu" help run) || exit 1
cat <<HEAD
.TH SMEMU 1 "" "smemu $ver" "User Commands"
.SH NAME
smemu \- run CUDA kernels (PTX) on the CPU with a model of GPU shared memory
.SH SYNOPSIS
.nf
HEAD
printf '%s\n' "$main" | esc
echo '.fi'
echo '.SH "SMEMU EXEC"'
echo '.nf'
printf '%s\n' "$exec_help" | esc
echo '.fi'
echo '.SH "SMEMU RUN"'
echo '.nf'
printf '%s\n' "$run_help" | esc
echo '.fi'
cat <<TAIL
.SH FILES
.TP
.I PREFIX/lib/smemu/libcudart.so.13, libcuda.so.1
the drop-in CUDA runtime and driver libraries that
.B smemu run
loads into a program; found relative to the smemu executable
.SH SEE ALSO
.BR nvcc (1)
TAIL
