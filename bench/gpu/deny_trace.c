// LD_PRELOAD library for bench/gpu/containment-probe.sh on machines without strace: logs to stderr every
// file-system call of the process that fails with EACCES or EPERM (what Landlock answers), with its path.
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static void note(const char* call, const char* path, long flags, int result) {
  if (result < 0 && (errno == EACCES || errno == EPERM)) {
    int saved = errno;
    fprintf(stderr, "deny_trace: %s(%s, 0x%lx) -> %s\n", call, path ? path : "?", flags,
            saved == EACCES ? "EACCES" : "EPERM");
    errno = saved;
  }
}

#define OPEN_LIKE(name)                                                        \
  int name(const char* path, int flags, ...) {                                 \
    static int (*real)(const char*, int, ...);                                 \
    if (!real) real = dlsym(RTLD_NEXT, #name);                                 \
    mode_t mode = 0;                                                           \
    if (flags & (O_CREAT | O_TMPFILE)) {                                       \
      va_list ap;                                                              \
      va_start(ap, flags);                                                     \
      mode = va_arg(ap, mode_t);                                               \
      va_end(ap);                                                              \
    }                                                                          \
    int r = real(path, flags, mode);                                           \
    note(#name, path, flags, r);                                               \
    return r;                                                                  \
  }
OPEN_LIKE(open)
OPEN_LIKE(open64)

#define OPEN2_LIKE(name)                                                       \
  int name(const char* path, int flags) {                                      \
    static int (*real)(const char*, int);                                      \
    if (!real) real = dlsym(RTLD_NEXT, #name);                                 \
    int r = real(path, flags);                                                 \
    note(#name, path, flags, r);                                               \
    return r;                                                                  \
  }
OPEN2_LIKE(__open_2)
OPEN2_LIKE(__open64_2)

#define OPENAT_LIKE(name)                                                      \
  int name(int dirfd, const char* path, int flags, ...) {                      \
    static int (*real)(int, const char*, int, ...);                            \
    if (!real) real = dlsym(RTLD_NEXT, #name);                                 \
    mode_t mode = 0;                                                           \
    if (flags & (O_CREAT | O_TMPFILE)) {                                       \
      va_list ap;                                                              \
      va_start(ap, flags);                                                     \
      mode = va_arg(ap, mode_t);                                               \
      va_end(ap);                                                              \
    }                                                                          \
    int r = real(dirfd, path, flags, mode);                                    \
    note(#name, path, flags, r);                                               \
    return r;                                                                  \
  }
OPENAT_LIKE(openat)
OPENAT_LIKE(openat64)

int mknod(const char* path, mode_t mode, dev_t dev) {
  static int (*real)(const char*, mode_t, dev_t);
  if (!real) real = dlsym(RTLD_NEXT, "mknod");
  int r = real(path, mode, dev);
  note("mknod", path, mode, r);
  return r;
}
int mknodat(int fd, const char* path, mode_t mode, dev_t dev) {
  static int (*real)(int, const char*, mode_t, dev_t);
  if (!real) real = dlsym(RTLD_NEXT, "mknodat");
  int r = real(fd, path, mode, dev);
  note("mknodat", path, mode, r);
  return r;
}
int mkdir(const char* path, mode_t mode) {
  static int (*real)(const char*, mode_t);
  if (!real) real = dlsym(RTLD_NEXT, "mkdir");
  int r = real(path, mode);
  note("mkdir", path, mode, r);
  return r;
}
int unlink(const char* path) {
  static int (*real)(const char*);
  if (!real) real = dlsym(RTLD_NEXT, "unlink");
  int r = real(path);
  note("unlink", path, 0, r);
  return r;
}
FILE* fopen(const char* path, const char* mode) {
  static FILE* (*real)(const char*, const char*);
  if (!real) real = dlsym(RTLD_NEXT, "fopen");
  FILE* f = real(path, mode);
  note("fopen", path, mode[0], f ? 0 : -1);
  return f;
}
FILE* fopen64(const char* path, const char* mode) {
  static FILE* (*real)(const char*, const char*);
  if (!real) real = dlsym(RTLD_NEXT, "fopen64");
  FILE* f = real(path, mode);
  note("fopen64", path, mode[0], f ? 0 : -1);
  return f;
}
int rename(const char* from, const char* to) {
  static int (*real)(const char*, const char*);
  if (!real) real = dlsym(RTLD_NEXT, "rename");
  int r = real(from, to);
  note("rename", to, 0, r);
  return r;
}
int shm_open(const char* name, int flags, mode_t mode) {
  static int (*real)(const char*, int, mode_t);
  if (!real) real = dlsym(RTLD_NEXT, "shm_open");
  int r = real(name, flags, mode);
  note("shm_open", name, flags, r);
  return r;
}
// Raw system calls through glibc's syscall(): logs any that fail with EACCES/EPERM, with the number (and,
// for open/openat, the path).
long syscall(long number, ...) {
  static long (*real)(long, ...);
  if (!real) real = dlsym(RTLD_NEXT, "syscall");
  va_list ap;
  va_start(ap, number);
  long a[6];
  for (int i = 0; i < 6; ++i) a[i] = va_arg(ap, long);
  va_end(ap);
  long r = real(number, a[0], a[1], a[2], a[3], a[4], a[5]);
  if (r < 0 && (errno == EACCES || errno == EPERM)) {
    int saved = errno;
    const char* path = number == 2 ? (const char*)a[0] : number == 257 ? (const char*)a[1] : "";
    fprintf(stderr, "deny_trace: syscall %ld (%s, 0x%lx) -> %s\n", number, path, a[1],
            saved == EACCES ? "EACCES" : "EPERM");
    errno = saved;
  }
  return r;
}
int ioctl(int fd, unsigned long request, ...) {
  static int (*real)(int, unsigned long, ...);
  if (!real) real = dlsym(RTLD_NEXT, "ioctl");
  va_list ap;
  va_start(ap, request);
  void* arg = va_arg(ap, void*);
  va_end(ap);
  int r = real(fd, request, arg);
  if (r < 0 && (errno == EACCES || errno == EPERM)) {
    char link[64], target[256] = "?";
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    int saved = errno;
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n > 0) target[n] = 0;
    errno = saved;
    note("ioctl", target, (long)request, r);
  }
  return r;
}
