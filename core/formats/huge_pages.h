#pragma once
// Large runs allocate hundreds of MiB of small objects (a million candidates: ~480 MiB). Where the kernel
// gives transparent huge pages on request ("madvise", Debian's default), glibc's malloc asks for them only
// when told at start-up (GLIBC_TUNABLES=glibc.malloc.hugetlb=1, glibc 2.35+); without them every 4 KiB page
// of the heap is a page fault. Reading a generated 1 000 000-candidate file took 5.7-5.8 s of CPU without
// and 4.4-4.6 s with (bench/load.sh's machine).
// The heap also grows in 64 MiB steps (glibc.malloc.top_pad) rather than a page or two past each request:
// fewer brk/mprotect calls, each step whole huge pages, and no trimming back between blocks. On the idle
// 2-core machine reading that file took 2.7-3.5 s with huge pages alone and 2.0-3.0 s with both, and the
// GUI's read (on a pool thread, in a thread arena) 3.7-4.7 s and 2.8-3.2 s; resident memory +6 MiB.
namespace ks {

// Re-executes the program (/proc/self/exe, same arguments) with the tunables set, once, when the kernel is
// in "madvise" mode and the environment sets neither the tunable nor KSCOPE_NO_HUGEPAGES. After the re-exec
// the environment is put back as it was, so that child processes (the runner) do not inherit it. Returns
// when it did not re-execute (or the exec failed). Call first thing in main.
void preferHugePages(char** argv);

}  // namespace ks
