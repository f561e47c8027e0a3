#include "core/version/version.h"

#include "ks_version_string.h"

namespace ks::version {

const char* string() { return KS_VERSION_STRING; }

std::string line(const std::string& program) { return program + " " + string(); }

}  // namespace ks::version
