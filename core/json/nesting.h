#pragma once
// A bound on how deeply JSON text may nest, checked before it is parsed. nlohmann::json parses deep text
// but copies and compares values recursively, so an array nested 100,000 deep (in a run file, a runner
// message or a cache record a candidate wrote) would overflow the stack of whoever touches it later.
// Every parser of text KernelScope did not write itself checks this first.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ks::json {

// Deeper than any file, message or record KernelScope reads (run files nest 4 levels, results about 8).
inline constexpr std::size_t kMaxNesting = 512;

// The 1-based column (byte offset + 1) of the first `[` or `{` that opens level `maxNesting + 1`, outside
// strings; nullopt when the text never nests that deep. Linear, no allocation; malformed text is left to
// the parser.
std::optional<std::size_t> tooDeepAt(std::string_view text, std::size_t maxNesting = kMaxNesting);

// "nested deeper than 512 levels (column 513)", or "" when `text` is within the bound.
std::string nestingError(std::string_view text, std::size_t maxNesting = kMaxNesting);

}  // namespace ks::json
