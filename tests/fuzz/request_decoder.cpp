// Fuzz target: the runner's request decoder (protocol::decodeRequest and requestIdOf) on one line. A request
// that decodes must encode to a line that decodes again to the same encoding.
#include <cstdlib>

#include "core/protocol/json_codec.h"
#include "tests/fuzz/scratch.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view line = ks::fuzz::bytes(data, size);
  (void)ks::protocol::requestIdOf(line);
  const auto decoded = ks::protocol::decodeRequest(line);
  if (!decoded.value) {
    if (decoded.error.empty()) std::abort();  // a rejection must say why
    return 0;
  }
  const std::string encoded = ks::protocol::encodeRequest(*decoded.value);
  const auto again = ks::protocol::decodeRequest(encoded);
  if (!again.value || ks::protocol::encodeRequest(*again.value) != encoded) std::abort();
  return 0;
}
