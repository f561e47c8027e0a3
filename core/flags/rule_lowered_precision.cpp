// lowered-precision: float16/bfloat16 compute (casts, dtype=, autocast, half conversions in CUDA) or TF32
// matmuls in the candidate while the reference computes in float32.
#include <algorithm>
#include <string>
#include <string_view>

#include "core/flags/rebinding.h"
#include "core/flags/rule_context.h"

namespace ks {

namespace {

struct Uses {
  std::vector<int> halfLines;  // float16 / bfloat16 compute
  std::vector<std::string> half;
  std::vector<int> tf32Lines;
  std::vector<std::string> tf32;

  void add(bool isTf32, std::string what, int line) {
    auto& names = isTf32 ? tf32 : half;
    (isTf32 ? tf32Lines : halfLines).push_back(line);
    if (std::find(names.begin(), names.end(), what) == names.end()) names.push_back(std::move(what));
  }
};

bool mentionsLowType(std::string_view t) {
  return contains(t, "float16") || contains(t, "bfloat16") || contains(t, "torch.half") ||
         contains(t, "HalfTensor") || contains(t, "BFloat16Tensor") || t == "'half'" || t == "\"half\"";
}

// The text of an argument, or of the assignment that gave a bare name its value.
std::string valueText(const py::PyModule& m, py::TokenRange r, int statement) {
  std::string t = m.compactText(r);
  if (r.size() == 1)
    if (const py::Assignment* a = m.reachingAssignment(t, statement); a != nullptr && a->op != "as")
      t += " " + m.compactText(a->value);
  return t;
}

// For the candidate, calls in get_inputs/get_init_inputs are left out: a change of the inputs' dtype is
// the business of changed-inputs. For the reference they count: 16-bit inputs make 16-bit compute normal.
Uses pythonUses(const py::PyModule& m, bool skipInputFunctions) {
  Uses u;
  auto inInputFunction = [&](int statement) {
    const int fn = m.enclosingFunction(statement);
    if (fn < 0) return false;
    const std::string& name = m.scopes()[static_cast<std::size_t>(fn)].qualifiedName;
    return name == "get_inputs" || name == "get_init_inputs";
  };
  for (const py::Call& c : m.calls()) {
    if (skipInputFunctions && inInputFunction(c.statement)) continue;
    const std::string name = lastMember(c.callee);
    if ((name == "half" || name == "bfloat16") && c.args.empty() && c.callee.find('.') != std::string::npos) {
      u.add(false, "." + name + "()", c.line);
      continue;
    }
    if (c.resolved == "torch.autocast" || c.resolved.ends_with("amp.autocast") || c.resolved == "autocast") {
      const std::string args = m.compactText(c.tokens);
      if (!contains(args, "enabled=False")) u.add(false, "autocast", c.line);
      continue;
    }
    if (c.resolved == "torch.set_float32_matmul_precision" && !c.args.empty()) {
      const std::string v = m.compactText(c.args[0].value);
      if (contains(v, "high") || contains(v, "medium"))
        u.add(true, "set_float32_matmul_precision(" + v + ")", c.line);
      continue;
    }
    for (const py::Argument& a : c.args) {
      const bool cast = (name == "to" || name == "type") && a.keyword.empty();
      if ((cast || a.keyword == "dtype") && mentionsLowType(valueText(m, a.value, c.statement))) {
        u.add(false,
              c.callee + "(" + (a.keyword.empty() ? "" : a.keyword + "=") + m.compactText(a.value) + ")",
              c.line);
        break;
      }
    }
  }
  for (const py::Assignment& a : m.assignments()) {
    const std::string value = m.compactText(a.value);
    for (const std::string& t : a.targets) {
      const std::string target = m.resolve(t);
      if (target == "torch.backends.cuda.matmul.allow_tf32" && value == "True")
        u.add(true, "matmul.allow_tf32 = True", a.line);
      // torch >= 2.9 spells it per backend; cuDNN's convolutions use TF32 by default, as with allow_tf32.
      if ((target == "torch.backends.cuda.matmul.fp32_precision" || target == "torch.backends.fp32_precision") &&
          unquoteLiteral(value) == "tf32")
        u.add(true, target.substr(std::string_view("torch.backends.").size()) + " = " + value, a.line);
    }
  }
  return u;
}

}  // namespace

void checkLoweredPrecision(const RuleContext& ctx, std::vector<Flag>& out) {
  const py::PyModule& m = ctx.candidate;
  if (forwardFunctions(m).empty()) return;
  const Uses reference = pythonUses(ctx.reference, false);
  Uses cand = pythonUses(m, true);
  // Conversions to 16-bit types and reduced-precision math modes inside the embedded CUDA/C++ sources.
  const auto toHalf = ctx.cppUses(
      {"__float2half", "__float2half_rn", "__float2half2_rn", "__floats2half2_rn", "__float22half2_rn",
       "__float2bfloat16", "__float2bfloat16_rn", "__floats2bfloat162_rn", "__float22bfloat162_rn",
       "CUDA_R_16F", "CUDA_R_16BF", "CUBLAS_COMPUTE_32F_FAST_16F", "CUBLAS_COMPUTE_32F_FAST_16BF"});
  for (const auto& use : toHalf) cand.add(false, use.identifier->last + " (CUDA)", use.pythonLine);
  const auto toTf32 =
      ctx.cppUses({"CUBLAS_COMPUTE_32F_FAST_TF32", "CUBLAS_TF32_TENSOR_OP_MATH", "__float_to_tf32", "tf32"});
  for (const auto& use : toTf32) cand.add(true, use.identifier->name + " (CUDA)", use.pythonLine);

  auto list = [](const std::vector<std::string>& names) {
    std::string s;
    for (std::size_t i = 0; i < names.size() && i < 4; ++i) s += (i ? ", " : "") + names[i];
    return s;
  };
  if (!cand.half.empty() && reference.half.empty()) {
    const bool python = std::any_of(cand.half.begin(), cand.half.end(),
                                    [](const std::string& s) { return !s.ends_with("(CUDA)"); });
    // A kernel that converts to 16 bits may only serve 16-bit inputs: forward then tests the dtype.
    bool dtypeTested = false;
    for (const py::Scope* f : forwardFunctions(m))
      for (const int s : functionStatements(m, *f, true)) {
        const std::string t = m.compactText(m.statements()[static_cast<std::size_t>(s)].tokens);
        dtypeTested = dtypeTested || contains(t, "dtype==torch.float16") ||
                      contains(t, "dtype==torch.half") || contains(t, "dtype==torch.bfloat16");
      }
    std::string message =
        "Computes in 16-bit floating point (" + list(cand.half) + ") while the reference computes in float32";
    message += python || !dtypeTested
                   ? "."
                   : "; forward tests for 16-bit inputs, so the kernel may only serve those.";
    // docs/hacks.md: explicit 16-bit compute on an fp32 task is a hack; a CUDA-only conversion may serve
    // only 16-bit inputs, and stays suspicious.
    out.push_back(makeFlag("lowered-precision", python ? FlagSeverity::Hack : FlagSeverity::Suspicious,
                           python        ? 0.7
                           : dtypeTested ? 0.3
                                         : 0.5,
                           message, cand.halfLines, excerptOf(m, cand.halfLines)));
  }
  if (!cand.tf32.empty() && reference.tf32.empty()) {
    out.push_back(
        makeFlag("lowered-precision", FlagSeverity::Suspicious, 0.5,
                 "Enables TF32 matmuls (" + list(cand.tf32) +
                     "): 10-bit mantissas against the reference's float32, usually within tolerance.",
                 cand.tf32Lines, excerptOf(m, cand.tf32Lines)));
  }
}

}  // namespace ks
