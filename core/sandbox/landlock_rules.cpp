#include "core/sandbox/landlock_rules.h"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>

namespace ks::sandbox {
namespace {

namespace fs = std::filesystem;

// The uapi header of the build machine may predate the kernel it runs on: the newer names are spelt here.
constexpr std::uint64_t kTruncate = 1ULL << 14;          // LANDLOCK_ACCESS_FS_TRUNCATE (ABI 3)
constexpr std::uint64_t kScopeAbstractUnix = 1ULL << 0;  // LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (ABI 6)
constexpr std::uint64_t kScopeSignal = 1ULL << 1;        // LANDLOCK_SCOPE_SIGNAL (ABI 6)
constexpr int kPathBeneath = 1;                          // LANDLOCK_RULE_PATH_BENEATH
constexpr unsigned kCreateRulesetVersion = 1U << 0;      // LANDLOCK_CREATE_RULESET_VERSION

// struct landlock_ruleset_attr as of ABI 6; a kernel that knows fewer fields accepts the larger struct as
// long as the fields it does not know are zero.
struct RulesetAttr {
  std::uint64_t handledAccessFs = 0;
  std::uint64_t handledAccessNet = 0;
  std::uint64_t scoped = 0;
};

struct __attribute__((packed)) PathBeneathAttr {
  std::uint64_t allowedAccess = 0;
  std::int32_t parentFd = -1;
};

constexpr std::uint64_t kFileWrites = LANDLOCK_ACCESS_FS_WRITE_FILE;
constexpr std::uint64_t kTreeWritesAbi1 = LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |
                                          LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_CHAR |
                                          LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |
                                          LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO |
                                          LANDLOCK_ACCESS_FS_MAKE_BLOCK | LANDLOCK_ACCESS_FS_MAKE_SYM;

long createRuleset(const RulesetAttr* attr, std::size_t size, unsigned flags) {
  return syscall(SYS_landlock_create_ruleset, attr, size, flags);
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

int landlockAbi(std::string* why) {
  const long abi = createRuleset(nullptr, 0, kCreateRulesetVersion);
  if (abi >= 1) return static_cast<int>(abi);
  if (why)
    *why = errno == ENOSYS ? "this kernel has no Landlock (landlock_create_ruleset: ENOSYS)"
           : errno == EOPNOTSUPP
               ? "Landlock is built into this kernel but disabled (boot with lsm=...,landlock)"
               : std::string("landlock_create_ruleset: ") + std::strerror(errno);
  return 0;
}

LandlockOutcome restrictWrites(const WriteRules& rules) {
  LandlockOutcome out;
  const int abi = landlockAbi(&out.error);
  if (abi == 0) return out;

  std::uint64_t tree = kTreeWritesAbi1, file = kFileWrites;
  if (abi >= 2) tree |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) {
    tree |= kTruncate;
    file |= kTruncate;
  }
  RulesetAttr attr;
  attr.handledAccessFs = tree;
  if (abi >= 6 && rules.scopeIpc) attr.scoped = kScopeAbstractUnix | kScopeSignal;
  const Fd ruleset(static_cast<int>(createRuleset(&attr, sizeof attr, 0)));
  if (ruleset.get() < 0) {
    out.error = std::string("landlock_create_ruleset: ") + std::strerror(errno);
    return out;
  }
  auto allow = [&](const fs::path& path) -> bool {
    const Fd target(::open(path.c_str(), O_PATH | O_CLOEXEC));
    if (target.get() < 0) {
      out.skipped.push_back(path.string());
      return true;
    }
    struct stat st {};
    if (fstat(target.get(), &st) != 0) return true;
    PathBeneathAttr rule;
    rule.allowedAccess = S_ISDIR(st.st_mode) ? tree : file;  // a file takes file rights only
    rule.parentFd = target.get();
    if (syscall(SYS_landlock_add_rule, ruleset.get(), kPathBeneath, &rule, 0) != 0) {
      out.error = "landlock_add_rule " + path.string() + ": " + std::strerror(errno);
      return false;
    }
    return true;
  };
  for (const fs::path& folder : rules.folders)
    if (!allow(folder)) return out;
  for (const fs::path& device : rules.devices)
    if (!allow(device)) return out;
  if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    out.error = std::string("PR_SET_NO_NEW_PRIVS: ") + std::strerror(errno);
    return out;
  }
  if (syscall(SYS_landlock_restrict_self, ruleset.get(), 0) != 0) {
    out.error = std::string("landlock_restrict_self: ") + std::strerror(errno);
    return out;
  }
  out.abi = abi;
  return out;
}

std::vector<fs::path> deviceWriteTargets(const fs::path& dev) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (const char* name : {"null", "zero", "full", "shm"})
    if (fs::exists(dev / name, ec)) out.push_back(dev / name);
  for (const auto& entry : fs::directory_iterator(dev, ec))
    if (entry.path().filename().string().rfind("nvidia", 0) == 0) out.push_back(entry.path());
  return out;
}

}  // namespace ks::sandbox
