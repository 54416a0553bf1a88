// host.cu: a translation unit without device code, linked in with the others
// (its fatbinary, if any, holds no symbols the link needs).
int host_only(int x) { return x + 1; }
