#pragma once
// A unified diff (diff -u) of two texts, line by line: what a repair changed, for a person to read.
#include <string>

namespace ks::repair {

// "--- a/<name>\n+++ b/<name>\n@@ -l,n +l,n @@\n ..." with `context` unchanged lines around each change;
// empty when the texts are equal.
std::string unifiedDiff(const std::string& before, const std::string& after, const std::string& name,
                        int context = 3);

}  // namespace ks::repair
