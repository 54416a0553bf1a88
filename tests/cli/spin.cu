// spin.cu: waits for a flag nothing sets: an endless loop.
extern "C" __global__ void spin(int *d) { while (d[0] == 0) { d[1]++; } }
