#pragma once
// "Did you mean …?": the names closest to a word a person typed, for every message that rejects a name
// (an unknown subcommand of kscope, an unknown --task). One rule for all of them: the Levenshtein distance,
// ignoring ASCII case, with a name within a third of its length of the word (at least 1), or one the word
// starts (at least 3 characters), counting as close.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ks {

// Insertions, deletions and substitutions that turn `a` into `b`, comparing ASCII letters without case.
std::size_t editDistance(std::string_view a, std::string_view b);

// The names of `names` close to `word`, nearest first (ties in the order given), at most `most`; only
// those at the nearest distance found, so "L1/12" is not offered beside an exact-but-for-case "l1/12".
// Empty when none is close.
std::vector<std::string> closestNames(std::string_view word, const std::vector<std::string>& names,
                                      std::size_t most = 3);

// "a", "a or b", "a, b or c"; each name between `quote`s ("'summary'").
std::string alternatives(const std::vector<std::string>& names, std::string_view quote = "");

}  // namespace ks
