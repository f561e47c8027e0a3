#pragma once
// Comparisons the runtime probes make between tensors, all without torch dispatch (C++ at::Tensor, so an
// object's __torch_function__ never runs): storage identity, bitwise equality, changes and non-finite values.
#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

#include "core/engine/output_compare.h"

namespace ks::engine {

// The byte ranges of the two tensors' storages overlap (one is a view of the other, or they share memory).
bool sharesStorage(const at::Tensor& a, const at::Tensor& b);
bool anySharesStorage(const std::vector<at::Tensor>& a, const std::vector<at::Tensor>& b);

// Same shapes and dtypes and the same bits in every value (NaN payloads and signed zeros included).
bool bitwiseEqual(const std::vector<at::Tensor>& a, const std::vector<at::Tensor>& b);
// Values whose bits differ; every value when shapes or dtypes differ.
std::int64_t bitwiseDifferences(const at::Tensor& a, const at::Tensor& b);
std::int64_t bitwiseDifferences(const std::vector<at::Tensor>& a, const std::vector<at::Tensor>& b);
std::int64_t numelOf(const std::vector<at::Tensor>& tensors);

// Copies that share nothing with the originals and have no Python object: what the probes keep.
std::vector<at::Tensor> detachedCopies(const std::vector<at::Tensor>& tensors);

struct Change {
  std::int64_t changed = 0;  // values whose bits differ
  double maxAbs = 0;         // largest |after - before| over values finite in both
  bool beyondTolerance = false;
};
// How `after` differs from `before` (same shape and dtype), judged with the tolerance of `tol`.
Change changeBetween(const at::Tensor& before, const at::Tensor& after, Tolerance tol);

// Values non-finite in `candidate` where `reference` is finite (0 unless shapes and dtypes match).
std::int64_t nonfiniteWhereFinite(const at::Tensor& reference, const at::Tensor& candidate);

// max |a - b|, compared in float64; 0 for empty or mismatched tensors. A position where one is NaN or infinite
// and the other is not the same non-finite value (NaN for NaN, the same infinity) makes it infinite: NaN is a
// mismatch, never a wildcard. Positions non-finite alike in both count 0.
double maxAbsDifference(const at::Tensor& a, const at::Tensor& b);
// max |a - b| over the values finite in both: how far two computations of the same task are apart where both
// are numbers (the reference against its own float64 run, which may overflow where that run does not).
double maxFiniteDifference(const at::Tensor& a, const at::Tensor& b);
double maxAbs(const at::Tensor& t);  // over finite values, in float64

}  // namespace ks::engine
