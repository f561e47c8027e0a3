#include "core/engine/tensor_evidence.h"

#include <ATen/ops/view_as_real.h>

#include <algorithm>
#include <limits>

namespace ks::engine {
namespace {

// The tensor's values as integers of the same width, flattened (complex: real and imaginary parts).
at::Tensor bitsOf(const at::Tensor& t) {
  at::Tensor flat = t.is_complex() ? at::view_as_real(t.resolve_conj()) : t;
  flat = flat.contiguous().reshape(-1);
  switch (flat.element_size()) {
    case 1:
      return flat.view(at::kByte);
    case 2:
      return flat.view(at::kShort);
    case 4:
      return flat.view(at::kInt);
    default:
      return flat.view(at::kLong);
  }
}

bool sameLayout(const at::Tensor& a, const at::Tensor& b) {
  return a.sizes() == b.sizes() && a.scalar_type() == b.scalar_type() && a.device() == b.device();
}

at::Tensor asDouble(const at::Tensor& t) {
  return (t.is_complex() ? at::view_as_real(t.resolve_conj()) : t).to(at::kDouble).reshape(-1);
}

}  // namespace

bool sharesStorage(const at::Tensor& a, const at::Tensor& b) {
  if (!a.defined() || !b.defined() || !a.has_storage() || !b.has_storage()) return false;
  const auto* pa = static_cast<const char*>(a.storage().data());
  const auto* pb = static_cast<const char*>(b.storage().data());
  if (!pa || !pb) return false;
  const auto na = static_cast<std::ptrdiff_t>(a.storage().nbytes());
  const auto nb = static_cast<std::ptrdiff_t>(b.storage().nbytes());
  return pa < pb + std::max<std::ptrdiff_t>(nb, 1) && pb < pa + std::max<std::ptrdiff_t>(na, 1);
}

bool anySharesStorage(const std::vector<at::Tensor>& a, const std::vector<at::Tensor>& b) {
  for (const at::Tensor& x : a)
    for (const at::Tensor& y : b)
      if (sharesStorage(x, y)) return true;
  return false;
}

std::int64_t bitwiseDifferences(const at::Tensor& a, const at::Tensor& b) {
  if (!sameLayout(a, b)) return std::max(a.numel(), b.numel());
  if (a.numel() == 0) return 0;
  return bitsOf(a).ne(bitsOf(b)).sum().item<std::int64_t>();
}

std::int64_t bitwiseDifferences(const std::vector<at::Tensor>& a, const std::vector<at::Tensor>& b) {
  if (a.size() != b.size()) return std::max(numelOf(a), numelOf(b));
  std::int64_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) n += bitwiseDifferences(a[i], b[i]);
  return n;
}

bool bitwiseEqual(const std::vector<at::Tensor>& a, const std::vector<at::Tensor>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!sameLayout(a[i], b[i]) || bitwiseDifferences(a[i], b[i]) > 0) return false;
  return true;
}

std::int64_t numelOf(const std::vector<at::Tensor>& tensors) {
  std::int64_t n = 0;
  for (const at::Tensor& t : tensors) n += t.numel();
  return n;
}

std::vector<at::Tensor> detachedCopies(const std::vector<at::Tensor>& tensors) {
  std::vector<at::Tensor> out;
  out.reserve(tensors.size());
  for (const at::Tensor& t : tensors) out.push_back(t.clone());
  return out;
}

Change changeBetween(const at::Tensor& before, const at::Tensor& after, Tolerance tol) {
  Change c;
  c.changed = bitwiseDifferences(before, after);
  if (c.changed == 0) return c;
  if (!sameLayout(before, after)) {
    c.beyondTolerance = true;
    return c;
  }
  const at::Tensor b = asDouble(before), a = asDouble(after);
  const at::Tensor both = b.isfinite().logical_and(a.isfinite());
  const at::Tensor diff = a.sub(b).abs().masked_fill(both.logical_not(), 0);
  c.maxAbs = diff.max().item<double>();
  const bool finiteChanged = b.isfinite().ne(a.isfinite()).any().item<bool>();
  c.beyondTolerance =
      finiteChanged || diff.gt(b.abs().mul(tol.rtol).add(tol.atol)).logical_and(both).any().item<bool>();
  return c;
}

std::int64_t nonfiniteWhereFinite(const at::Tensor& reference, const at::Tensor& candidate) {
  if (!sameLayout(reference, candidate) || reference.numel() == 0) return 0;
  if (!reference.is_floating_point() && !reference.is_complex()) return 0;
  const at::Tensor r = asDouble(reference), c = asDouble(candidate);
  return r.isfinite().logical_and(c.isfinite().logical_not()).sum().item<std::int64_t>();
}

double maxAbsDifference(const at::Tensor& a, const at::Tensor& b) {
  if (a.sizes() != b.sizes() || a.numel() == 0) return 0;
  const at::Tensor x = asDouble(a), y = asDouble(b);
  const at::Tensor xFinite = x.isfinite(), yFinite = y.isfinite();
  const at::Tensor both = xFinite.logical_and(yFinite);
  // A NaN or infinity answers a finite value, or another non-finite one, only with an infinite difference:
  // masked out it would read as agreement, and every `error > bound` after it as a pass.
  const at::Tensor sameNonfinite = x.isnan().logical_and(y.isnan()).logical_or(x.eq(y)).logical_and(both.logical_not());
  if (both.logical_or(sameNonfinite).logical_not().any().item<bool>()) return std::numeric_limits<double>::infinity();
  return x.sub(y).abs().masked_fill(both.logical_not(), 0).max().item<double>();
}

double maxFiniteDifference(const at::Tensor& a, const at::Tensor& b) {
  if (a.sizes() != b.sizes() || a.numel() == 0) return 0;
  const at::Tensor x = asDouble(a), y = asDouble(b);
  const at::Tensor both = x.isfinite().logical_and(y.isfinite());
  return x.sub(y).abs().masked_fill(both.logical_not(), 0).max().item<double>();
}

double maxAbs(const at::Tensor& t) {
  if (t.numel() == 0) return 0;
  const at::Tensor x = asDouble(t);
  return x.abs().masked_fill(x.isfinite().logical_not(), 0).max().item<double>();
}

}  // namespace ks::engine
