// fallback-to-reference: a try/except around the custom kernel (its call or its build) whose handler
// goes on with PyTorch instead of re-raising; or a kernel path guarded by a dtype the benchmark's
// inputs never have.
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>

#include "core/flags/custom_kernels.h"
#include "core/flags/rule_context.h"

namespace ks {

namespace {

// What the handler does instead, for the message.
std::string handlerAction(const py::PyModule& m, int handler) {
  const int end = m.statements()[static_cast<std::size_t>(handler)].bodyEnd;
  for (int s = handler + 1; s < end; ++s) {
    const py::Statement& st = m.statements()[static_cast<std::size_t>(s)];
    if (st.kind == py::StmtKind::Return && st.tokens.size() > 1)
      return "returns " + m.compactText(py::TokenRange{st.tokens.begin + 1, st.tokens.end});
  }
  for (const py::Call* c : m.callsInBody(handler))
    if (c->resolved.starts_with("torch.") && !c->resolved.starts_with("torch.cuda."))
      return "calls " + c->callee;
  for (int s = handler + 1; s < end; ++s) {
    const py::Statement& st = m.statements()[static_cast<std::size_t>(s)];
    if (st.kind == py::StmtKind::Assign) return "sets " + m.compactText(st.tokens);
  }
  return "continues without the kernel";
}

bool reraises(const py::PyModule& m, int handler) {
  const int end = m.statements()[static_cast<std::size_t>(handler)].bodyEnd;
  for (int s = handler + 1; s < end; ++s)
    if (m.statements()[static_cast<std::size_t>(s)].kind == py::StmtKind::Raise &&
        m.statements()[static_cast<std::size_t>(s)].parent == handler)
      return true;
  return false;
}

// The dtype the reference's get_inputs gives its tensors ("float32" unless a dtype= says otherwise).
std::string referenceInputDtype(const py::PyModule& ref) {
  const py::Scope* gi = ref.findScope("get_inputs");
  if (gi == nullptr) return "float32";
  for (const py::Call* c : ref.callsIn(gi))
    for (const py::Argument& a : c->args)
      if (a.keyword == "dtype") {
        const std::string v = ref.compactText(a.value);
        return v.substr(v.rfind('.') + 1);
      }
  return "float32";
}

// A module that can only be a prebuilt fast path: not torch, numpy or the standard library.
bool prebuiltModule(std::string_view module) {
  static constexpr std::string_view kKnown[] = {
      "torch", "numpy", "math", "os", "sys", "time", "typing", "functools", "itertools", "collections",
      "importlib", "warnings", "dataclasses", "contextlib", "threading", "json", "re", "copy", "abc",
      "enum", "inspect", "types", "ctypes", "tempfile", "pathlib", "hashlib", "logging", "random", "gc",
      "operator", "struct", "io", "subprocess", "shutil", "platform", "__future__"};
  if (module.empty() || module.front() == '.') return module.size() > 1;
  const std::string_view top = module.substr(0, module.find('.'));
  return std::find(std::begin(kKnown), std::end(kKnown), top) == std::end(kKnown);
}

// One flag for all the try/except fallbacks of a program: around kernel calls, around the build.
void tryBlocks(const RuleContext& ctx, const CustomKernels& kernels, std::vector<Flag>& out) {
  const py::PyModule& m = ctx.candidate;
  std::vector<int> lines;
  std::string runtime, build;  // the first description of each kind
  for (const py::TryBlock& t : m.tryBlocks()) {
    const py::Statement& tryStmt = m.statements()[static_cast<std::size_t>(t.tryStatement)];
    int kernelLine = 0, buildLine = 0;
    for (const py::Call* c : m.callsInBody(t.tryStatement)) {
      if (kernels.isKernelCall(*c) && kernelLine == 0)
        kernelLine = c->line;
      else if (kernels.isBuildCall(m, *c) && buildLine == 0)
        buildLine = c->line;
    }
    // A fast path that is a prebuilt module: `import fast_ext` (or importlib.import_module) in the try.
    std::string prebuilt;
    int importLine = 0;
    if (kernelLine == 0 && buildLine == 0) {
      const int end = tryStmt.bodyEnd;
      for (const py::Import& imp : m.imports())
        if (imp.statement > t.tryStatement && imp.statement < end && prebuiltModule(imp.module)) {
          prebuilt = imp.module;
          importLine = imp.line;
          break;
        }
      if (importLine == 0)
        for (const py::Call* c : m.callsInBody(t.tryStatement))
          if (c->resolved == "importlib.import_module" || c->resolved == "__import__") {
            const auto name = c->args.empty() ? std::nullopt : m.stringValue(c->args[0].value);
            if (name && !prebuiltModule(name->text)) continue;
            prebuilt = name ? name->text : m.compactText(c->args.empty() ? py::TokenRange{} : c->args[0].value);
            importLine = c->line;
            break;
          }
      if (importLine == 0) continue;
      buildLine = importLine;  // reported like a failed build: the program then runs without its kernel
    }
    const auto handler =
        std::find_if(t.handlers.begin(), t.handlers.end(), [&](int h) { return !reraises(m, h); });
    if (handler == t.handlers.end()) continue;
    const py::Statement& hs = m.statements()[static_cast<std::size_t>(*handler)];
    lines.insert(lines.end(), {tryStmt.line, kernelLine != 0 ? kernelLine : buildLine, hs.line});
    std::string& slot = kernelLine != 0 ? runtime : build;
    if (slot.empty())
      slot = (kernelLine != 0 ? "if the custom kernel raises (line " + std::to_string(kernelLine)
              : !prebuilt.empty()
                  ? "if the prebuilt module " + prebuilt + " cannot be imported (line " + std::to_string(importLine)
                  : "if the extension fails to build (line " + std::to_string(buildLine)) +
             "), the except at line " + std::to_string(hs.line) + " " + handlerAction(m, *handler);
  }
  if (runtime.empty() && build.empty()) return;
  std::string message = !runtime.empty() ? runtime : build;
  if (!runtime.empty() && !build.empty()) message += "; and " + build;
  message[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(message[0])));
  message +=
      !runtime.empty() ? ": the timing may be PyTorch's." : ": the program then runs without its kernel.";
  out.push_back(makeFlag("fallback-to-reference", FlagSeverity::Benign, !runtime.empty() ? 0.8 : 0.6, message,
                         lines, excerptOf(m, lines)));
}

// `if x.dtype == torch.float16: return ext.run(x)` while the benchmark feeds float32.
void dtypeGuards(const RuleContext& ctx, const CustomKernels& kernels, std::vector<Flag>& out) {
  const py::PyModule& m = ctx.candidate;
  const std::string inputDtype = referenceInputDtype(ctx.reference);
  static constexpr std::string_view kOther[] = {"float16", "half", "bfloat16", "float64", "double"};
  for (const py::Scope* fwd : forwardFunctions(m)) {
    for (const int s : functionStatements(m, *fwd, true)) {
      const py::Statement& st = m.statements()[static_cast<std::size_t>(s)];
      if (st.kind != py::StmtKind::If && st.kind != py::StmtKind::Elif) continue;
      const std::string cond = m.compactText(st.tokens);
      if (!contains(cond, "dtype==")) continue;
      std::string required;
      for (const std::string_view d : kOther)
        if (contains(cond, "dtype==torch." + std::string(d)) && d != inputDtype) required = std::string(d);
      if (required.empty()) continue;
      const auto calls = m.callsInBody(s);
      const auto kernelCall = std::find_if(calls.begin(), calls.end(),
                                           [&](const py::Call* c) { return kernels.isKernelCall(*c); });
      if (kernelCall == calls.end()) continue;
      const std::vector<int> lines{st.line, (*kernelCall)->line};
      out.push_back(makeFlag("fallback-to-reference", FlagSeverity::Benign, 0.7,
                             "The custom kernel only runs for " + required + " inputs (line " +
                                 std::to_string(st.line) + "); get_inputs makes " + inputDtype +
                                 " tensors, so the benchmark times the other path.",
                             lines, excerptOf(m, lines)));
      return;
    }
  }
}

}  // namespace

void checkFallbackToReference(const RuleContext& ctx, std::vector<Flag>& out) {
  const CustomKernels kernels = findCustomKernels(ctx.candidate, ctx.embedded());
  tryBlocks(ctx, kernels, out);
  dtypeGuards(ctx, kernels, out);
}

}  // namespace ks
