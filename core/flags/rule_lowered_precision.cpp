// lowered-precision: float16/bfloat16 compute (casts, dtype=, autocast, half conversions in CUDA) or TF32
// matmuls in the candidate while the reference computes in float32; float32 compute (.float(), .to(torch.float32),
// dtype=torch.float32, the default dtype) while the reference computes in float64.
#include <algorithm>
#include <cctype>
#include <optional>
#include <utility>
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
  std::vector<int> singleLines;  // float32 compute (read only on a float64 task)
  std::vector<std::string> single;

  void add(bool isTf32, std::string what, int line) {
    auto& names = isTf32 ? tf32 : half;
    (isTf32 ? tf32Lines : halfLines).push_back(line);
    if (std::find(names.begin(), names.end(), what) == names.end()) names.push_back(std::move(what));
  }
  void addSingle(std::string what, int line) {
    singleLines.push_back(line);
    if (std::find(single.begin(), single.end(), what) == single.end()) single.push_back(std::move(what));
  }
};

bool mentionsLowType(std::string_view t) {
  return contains(t, "float16") || contains(t, "bfloat16") || contains(t, "torch.half") ||
         contains(t, "HalfTensor") || contains(t, "BFloat16Tensor") || t == "'half'" || t == "\"half\"";
}

// `torch.float32`, `torch.float` (not float16/float64), `torch.FloatTensor`, `"float32"`, `"float"`: float32 named.
bool mentionsSingle(std::string_view t) {
  if (contains(t, "float32") || contains(t, "FloatTensor") || t == "'float'" || t == "\"float\"") return true;
  for (std::size_t at = t.find("torch.float"); at != std::string_view::npos; at = t.find("torch.float", at + 1)) {
    const std::size_t after = at + std::string_view("torch.float").size();
    if (after == t.size() || !(std::isalnum(static_cast<unsigned char>(t[after])) || t[after] == '_')) return true;
  }
  return false;
}

bool mentionsDouble(std::string_view t) {
  return contains(t, "float64") || contains(t, "torch.double") || contains(t, "DoubleTensor") || t == "'double'" ||
         t == "\"double\"";
}

bool dottedName(std::string_view t) {
  if (t.empty()) return false;
  for (char ch : t)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '.')) return false;
  return true;
}

// The text of an argument, or of the assignment that gave a bare name, or an attribute such as self.work_dtype,
// its value (one step: `self.low = torch.bfloat16` in __init__ read by `.to(self.low)` in forward).
std::string valueText(const py::PyModule& m, py::TokenRange r, int statement) {
  std::string t = m.compactText(r);
  if (dottedName(t))
    if (const py::Assignment* a = m.reachingAssignment(t, statement); a != nullptr && a->op != "as")
      t += " " + m.compactText(a->value);
  return t;
}

// Whether a program sets torch's default dtype to float64 (at module level or anywhere it runs).
bool setsDefaultDouble(const py::PyModule& m) {
  for (const py::Call& c : m.calls())
    if ((c.resolved == "torch.set_default_dtype" || c.resolved == "torch.set_default_tensor_type") &&
        !c.args.empty() && mentionsDouble(m.compactText(c.args[0].value)))
      return true;
  return false;
}

// A float64 task: the reference's get_inputs makes float64 tensors (dtype=torch.float64, .double(), .to(...)) or
// the reference program sets float64 as the default dtype.
bool float64Task(const py::PyModule& ref) {
  if (setsDefaultDouble(ref)) return true;
  const py::Scope* inputs = ref.findScope("get_inputs");
  if (inputs == nullptr) return false;
  for (const py::Call* c : ref.callsIn(inputs)) {
    if (lastMember(c->callee) == "double" && c->args.empty()) return true;
    for (const py::Argument& a : c->args)
      if ((a.keyword == "dtype" || (a.keyword.empty() && lastMember(c->callee) == "to")) &&
          mentionsDouble(valueText(ref, a.value, c->statement)))
        return true;
  }
  return false;
}

// `.float()` on a comparison or a mask (`(x > 0).float()`, `x.gt(0).float()`) makes a 0/1 factor, exact in any
// dtype: not compute.
bool maskReceiver(const py::PyModule& m, const py::Call& c) {
  for (const char* test : {"gt()", "lt()", "ge()", "le()", "eq()", "ne()", "bool()", "isnan()", "isfinite()",
                           "logical_and()", "logical_or()", "logical_not()", "where()"})
    if (contains(c.callee, std::string(".") + test + ".")) return true;
  if (!c.callee.starts_with("().")) return false;
  // The receiver is a parenthesised expression: the tokens from the call's first '(' to its match.
  const int open = c.tokens.begin, close = m.matchingBracket(open);
  if (close <= open) return false;
  const std::string inner = m.compactText(py::TokenRange{open + 1, close});
  for (const char* op : {">", "<", "==", "!=", "&", "|", "~"})
    if (contains(inner, op)) return true;
  return false;
}

// For the candidate, calls in get_inputs/get_init_inputs are left out: a change of the inputs' dtype is
// the business of changed-inputs. For the reference they count: 16-bit inputs make 16-bit compute normal.
Uses pythonUses(const py::PyModule& m, bool skipInputFunctions) {
  Uses u;
  // On a float64 task the default dtype is float32 unless the program makes it float64: a cast to
  // torch.get_default_dtype() is then a cast to float32.
  const bool defaultSingle = !setsDefaultDouble(m);
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
    if (name == "float" && c.args.empty() && c.callee.find('.') != std::string::npos && !maskReceiver(m, c)) {
      u.addSingle(".float()", c.line);
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
      if (!cast && a.keyword != "dtype") continue;
      const std::string value = valueText(m, a.value, c.statement);
      const std::string what =
          c.callee + "(" + (a.keyword.empty() ? "" : a.keyword + "=") + m.compactText(a.value) + ")";
      if (mentionsLowType(value)) {
        u.add(false, what, c.line);
        break;
      }
      if (mentionsSingle(value) || (defaultSingle && contains(value, "get_default_dtype()"))) {
        u.addSingle(what, c.line);
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

// The integer after `&` in compact text ("&-65536", "&0xFFFF0000"), if one is written there.
std::optional<long long> maskAfterAnd(std::string_view t, std::size_t at) {
  std::size_t i = at + 1;
  const bool negative = i < t.size() && t[i] == '-';
  if (negative) ++i;
  std::size_t end = i;
  while (end < t.size() && (std::isalnum(static_cast<unsigned char>(t[end])) || t[end] == '_')) ++end;
  if (end == i || !std::isdigit(static_cast<unsigned char>(t[i]))) return std::nullopt;
  std::string digits(t.substr(i, end - i));
  digits.erase(std::remove(digits.begin(), digits.end(), '_'), digits.end());
  try {
    const long long v = std::stoll(digits, nullptr, 0);
    return negative ? -v : v;
  } catch (const std::exception&) {
    try {
      return static_cast<long long>(std::stoull(digits, nullptr, 0));
    } catch (const std::exception&) {
      return std::nullopt;
    }
  }
}

// Statements of forward that reinterpret floats as 32-bit integers (`.view(torch.int32)`) and clear low bits with
// a literal mask: rounding float32's 23 mantissa bits to fewer without any cast (13 or more cleared: float16's or
// bfloat16's precision). The lines and the mask as written.
std::vector<std::pair<int, std::string>> mantissaMasks(const py::PyModule& m) {
  std::vector<std::pair<int, std::string>> out;
  for (const py::Scope* f : forwardFunctions(m))
    for (const int s : functionStatements(m, *f, true)) {
      const std::string t = m.compactText(m.statements()[static_cast<std::size_t>(s)].tokens);
      if (!contains(t, ".view(torch.int32)") && !contains(t, ".view(torch.int)")) continue;
      for (std::size_t at = t.find('&'); at != std::string::npos; at = t.find('&', at + 1)) {
        const std::optional<long long> mask = maskAfterAnd(t, at);
        if (!mask) continue;
        const auto low = static_cast<unsigned long long>(*mask) & 0xFFFFFFFFull;
        if (low != 0 && (low & 0x1FFFull) == 0) {
          out.emplace_back(m.statements()[static_cast<std::size_t>(s)].line, t.substr(at, 12));
          break;
        }
      }
    }
  return out;
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
  const bool task64 = float64Task(ctx.reference);
  const char* taskDtype = task64 ? "float64" : "float32";
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
    std::string message = "Computes in 16-bit floating point (" + list(cand.half) + ") while the reference computes in " +
                          taskDtype;
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
  // docs/hacks.md: a float64 task computed in float32 and cast back is off by float32's rounding, about 10^9
  // times float64's, and still inside a 1e-2 tolerance; no float64 task needs float32 arithmetic to be fast.
  if (task64 && !cand.single.empty() && reference.single.empty()) {
    out.push_back(makeFlag("lowered-precision", FlagSeverity::Hack, 0.7,
                           "Computes in float32 (" + list(cand.single) +
                               ") while the reference computes in float64: float32 rounding is about 5 x 10^8 "
                               "times float64's, inside the tolerance but not the task's arithmetic.",
                           cand.singleLines, excerptOf(m, cand.singleLines)));
  }
  if (const auto masks = mantissaMasks(m); !masks.empty() && mantissaMasks(ctx.reference).empty()) {
    std::vector<int> lines;
    for (const auto& [line, mask] : masks) lines.push_back(line);
    out.push_back(makeFlag("lowered-precision", FlagSeverity::Hack, 0.7,
                           "Clears the low mantissa bits of " + std::string(taskDtype) +
                               " values through an integer view (.view(torch.int32) " + masks.front().second +
                               "): 16-bit precision without a cast, while the reference computes in " + taskDtype + ".",
                           lines, excerptOf(m, lines)));
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
