#pragma once
// Appends an item to a list unless the list holds it already: the lists of reasons, shapes and names that
// the views show keep their first-seen order and say each thing once.
#include <algorithm>
#include <type_traits>
#include <vector>

namespace ks {

template <class T>
void addOnce(std::vector<T>& list, const std::type_identity_t<T>& item) {
  if (std::find(list.begin(), list.end(), item) == list.end()) list.push_back(item);
}

}  // namespace ks
