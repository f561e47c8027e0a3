#pragma once
// Large runs allocate hundreds of MiB of small objects (a million candidates: ~480 MiB). Where the kernel
// gives transparent huge pages on request ("madvise", Debian's default), glibc's malloc asks for them only
// when told at start-up (GLIBC_TUNABLES=glibc.malloc.hugetlb=1, glibc 2.35+); without them every 4 KiB page
// of the heap is a page fault. Reading a generated 1 000 000-candidate file took 5.7-5.8 s of CPU without
// and 4.4-4.6 s with (bench/load.sh's machine).
namespace ks {

// Re-executes the program (/proc/self/exe, same arguments) with the tunable set, once, when the kernel is
// in "madvise" mode and the environment sets neither the tunable nor KSCOPE_NO_HUGEPAGES. After the re-exec
// the environment is put back as it was, so that child processes (the runner) do not inherit it. Returns
// when it did not re-execute (or the exec failed). Call first thing in main.
void preferHugePages(char** argv);

}  // namespace ks
