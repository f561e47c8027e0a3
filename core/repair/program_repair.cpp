#include "core/repair/program_repair.h"

#include <algorithm>
#include <array>
#include <map>
#include <regex>
#include <set>

#include "core/pysource/embedded_sources.h"
#include "core/pysource/py_module.h"
#include "core/repair/unified_diff.h"

namespace ks::repair {
namespace {

using py::PyModule;
using py::TokenKind;
using py::TokenRange;

constexpr std::array<std::pair<RepairKind, const char*>, 7> kKinds{{
    {RepairKind::DeclareBoundFunctions, "declare-bound-functions"},
    {RepairKind::DropGeneratedModule, "drop-generated-module"},
    {RepairKind::KernelLauncher, "kernel-launcher"},
    {RepairKind::RemovedTensorApi, "removed-tensor-api"},
    {RepairKind::MissingHeader, "missing-header"},
    {RepairKind::ArchFlags, "arch-flags"},
    {RepairKind::CudaInCppSources, "cuda-in-cpp-sources"},
}};

// One replacement of bytes [begin, end) of the original program.
struct Edit {
  std::size_t begin = 0, end = 0;
  std::string text;
};

int lineOf(const std::string& text, std::size_t offset) {
  return 1 + static_cast<int>(std::count(text.begin(), text.begin() + static_cast<long>(offset), '\n'));
}

std::string collapseSpaces(const std::string& s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  return out;
}

std::string withoutComments(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    if (s.compare(i, 2, "//") == 0) {
      i = s.find('\n', i);
      if (i == std::string::npos) break;
    } else if (s.compare(i, 2, "/*") == 0) {
      const std::size_t end = s.find("*/", i + 2);
      i = end == std::string::npos ? s.size() : end + 2;
      out += ' ';
    } else {
      out += s[i++];
    }
  }
  return out;
}

// A Python string literal holding `text` (double quotes, escapes for what needs them).
std::string pythonLiteral(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

bool definesKernel(const std::string& source, const std::string& name) {
  return std::regex_search(source, std::regex("__global__[^;{}()]*\\b" + name + "\\s*\\("));
}

bool kernelIsTemplate(const std::string& source, const std::string& name) {
  std::smatch m;
  if (!std::regex_search(source, m, std::regex("__global__[^;{}()]*\\b" + name + "\\s*\\("))) return false;
  const std::size_t at = static_cast<std::size_t>(m.position(0));
  const std::size_t before = source.find_last_of(";}", at);
  const std::string head = source.substr(before == std::string::npos ? 0 : before,
                                         at - (before == std::string::npos ? 0 : before));
  return head.find("template") != std::string::npos;
}

// `name(` as a declaration or definition (not a call inside a body) somewhere in `source`.
bool declares(const std::string& source, const std::string& name) {
  const std::regex re("\\b" + name + "\\s*\\(");
  for (auto it = std::sregex_iterator(source.begin(), source.end(), re); it != std::sregex_iterator(); ++it) {
    const std::size_t at = static_cast<std::size_t>(it->position(0));
    // Preceded by a type: an identifier, '*', '&' or '>' before the name, not '.', '->', '(', ',', '='.
    std::size_t p = at;
    while (p > 0 && (source[p - 1] == ' ' || source[p - 1] == '\t' || source[p - 1] == '\n')) --p;
    if (p == 0) continue;
    const char c = source[p - 1];
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '*' || c == '&' || c == '>') {
      // `return f(` is a call.
      if (p >= 6 && source.compare(p - 6, 6, "return") == 0) continue;
      return true;
    }
  }
  return false;
}

// The declaration of host function `name` from its definition in `source`: "torch::Tensor f(torch::Tensor
// x);" nullopt with `why` set when there is none, or it cannot be declared from another file (static, inline,
// template, an overload set).
std::optional<std::string> declarationOf(const std::string& source, const std::string& name,
                                         std::string& why) {
  const std::regex re("\\b" + name + "\\s*\\(");
  std::vector<std::string> found;
  for (auto it = std::sregex_iterator(source.begin(), source.end(), re); it != std::sregex_iterator(); ++it) {
    const std::size_t at = static_cast<std::size_t>(it->position(0));
    std::size_t open = source.find('(', at);
    int depth = 0;
    std::size_t close = open;
    for (; close < source.size(); ++close) {
      if (source[close] == '(') ++depth;
      if (source[close] == ')' && --depth == 0) break;
    }
    if (close >= source.size()) continue;
    std::size_t after = source.find_first_not_of(" \t\r\n", close + 1);
    while (after != std::string::npos && source.compare(after, 8, "noexcept") == 0)
      after = source.find_first_not_of(" \t\r\n", after + 8);
    if (after == std::string::npos || source[after] != '{') continue;  // a call or a declaration
    // The head starts after the previous ';', '}', '{' or preprocessor line.
    std::size_t start = at;
    while (start > 0) {
      const char c = source[start - 1];
      if (c == ';' || c == '}' || c == '{') break;
      if (c == '\n') {
        const std::size_t lineStart = source.rfind('\n', start - 2);
        const std::size_t first =
            source.find_first_not_of(" \t", lineStart == std::string::npos ? 0 : lineStart + 1);
        if (first != std::string::npos && first < start && source[first] == '#') break;
      }
      --start;
    }
    std::string head = collapseSpaces(withoutComments(source.substr(start, close + 1 - start)));
    if (head.empty() || head == name || head.rfind(name, 0) == 0)
      continue;  // no return type: not a definition
    for (const char* bad : {"static ", "inline ", "template", "__global__", "__device__", "constexpr "})
      if (head.find(bad) != std::string::npos) {
        why = "bound function " + name + " is " +
              std::string(bad == std::string("template") ? "a template" : bad) +
              ": it cannot be declared from another file";
        return std::nullopt;
      }
    found.push_back(head + ";");
  }
  if (found.empty()) {
    why = "bound function " + name + " is defined in no source of the call";
    return std::nullopt;
  }
  if (found.size() > 1) {
    why = "bound function " + name + " is overloaded: which one to bind is not known";
    return std::nullopt;
  }
  return found.front();
}

// The host launcher module for kernels the program calls from Python as a CuPy-style raw kernel: either
// mod.kernel(grid=..., block=..., args=[...], shared_mem=/shared=..., stream=...) (the kernel's arguments in
// args=, or positional), or mod.kernel(grid, block, [shared,] *arguments). Which form is read from the
// keywords and the kernel's parameter count, so nothing is guessed.
std::string launcherSource(const std::vector<std::string>& kernels, const std::vector<std::string>& hosts) {
  std::string s =
      "\n// kscope repair (kernel-launcher): the program calls these __global__ kernels from Python with a "
      "grid\n"
      "// and a block; torch cannot bind a kernel, so each gets a host launcher under its own name that\n"
      "// launches it unchanged with that grid, block, shared memory and stream (the current one by "
      "default).\n"
      "#include <torch/extension.h>\n"
      "#include <ATen/cuda/CUDAContext.h>\n"
      "#include <c10/cuda/CUDAException.h>\n"
      "#include <cstdint>\n"
      "#include <type_traits>\n"
      "#include <utility>\n"
      "#include <vector>\n"
      "namespace kscope_launch {\n"
      "inline dim3 dims(const pybind11::handle& h) {\n"
      "  if (pybind11::isinstance<pybind11::int_>(h)) return dim3(h.cast<unsigned>());\n"
      "  const auto d = h.cast<std::vector<unsigned>>();\n"
      "  TORCH_CHECK(!d.empty() && d.size() <= 3, \"grid and block take 1 to 3 dimensions\");\n"
      "  return dim3(d[0], d.size() > 1 ? d[1] : 1u, d.size() > 2 ? d[2] : 1u);\n"
      "}\n"
      "template <class T>\n"
      "T arg(const pybind11::handle& h) {\n"
      "  if constexpr (std::is_pointer_v<T>) {\n"
      "    if (h.is_none()) return nullptr;\n"
      "    if (pybind11::hasattr(h, \"data_ptr\"))\n"
      "      return reinterpret_cast<T>(h.attr(\"data_ptr\")().cast<std::uintptr_t>());\n"
      "    return reinterpret_cast<T>(h.cast<std::uintptr_t>());\n"
      "  } else {\n"
      "    return h.cast<T>();\n"
      "  }\n"
      "}\n"
      "inline cudaStream_t stream(const pybind11::handle& s) {\n"
      "  if (s.is_none()) return at::cuda::getCurrentCUDAStream();\n"
      "  if (pybind11::hasattr(s, \"cuda_stream\"))\n"
      "    return reinterpret_cast<cudaStream_t>(s.attr(\"cuda_stream\").cast<std::uintptr_t>());\n"
      "  return reinterpret_cast<cudaStream_t>(s.cast<std::uintptr_t>());\n"
      "}\n"
      "template <class... P, std::size_t... I>\n"
      "void launch(void (*kernel)(P...), dim3 grid, dim3 block, std::size_t shared, cudaStream_t s,\n"
      "            const pybind11::list& args, std::index_sequence<I...>) {\n"
      "  kernel<<<grid, block, shared, s>>>(arg<std::remove_cv_t<P>>(args[I])...);\n"
      "}\n"
      "template <class... P>\n"
      "void fromPython(void (*kernel)(P...), const pybind11::args& a, const pybind11::kwargs& kw) {\n"
      "  constexpr std::size_t n = sizeof...(P);\n"
      "  pybind11::object grid, block, s = pybind11::none();\n"
      "  std::size_t shared = 0;\n"
      "  pybind11::list params;\n"
      "  if (kw.contains(\"grid\")) {\n"
      "    TORCH_CHECK(kw.contains(\"block\"), \"grid= without block=\");\n"
      "    grid = kw[\"grid\"];\n"
      "    block = kw[\"block\"];\n"
      "    if (kw.contains(\"shared_mem\")) shared += kw[\"shared_mem\"].cast<std::size_t>();\n"
      "    if (kw.contains(\"shared\")) shared += kw[\"shared\"].cast<std::size_t>();\n"
      "    if (kw.contains(\"stream\")) s = kw[\"stream\"];\n"
      "    if (kw.contains(\"args\"))\n"
      "      for (const auto& x : kw[\"args\"]) params.append(x);\n"
      "    else\n"
      "      for (const auto& x : a) params.append(x);\n"
      "  } else {\n"
      "    TORCH_CHECK(a.size() == n + 2 || a.size() == n + 3, \"the kernel takes \", n,\n"
      "                \" arguments after grid, block (and shared memory); \", a.size(), \" were given\");\n"
      "    grid = a[0];\n"
      "    block = a[1];\n"
      "    std::size_t first = 2;\n"
      "    if (a.size() == n + 3) shared = a[2].cast<std::size_t>(), first = 3;\n"
      "    for (std::size_t i = first; i < a.size(); ++i) params.append(a[i]);\n"
      "  }\n"
      "  TORCH_CHECK(params.size() == n, \"the kernel takes \", n, \" arguments; \", params.size(), \" were "
      "given\");\n"
      "  launch(kernel, dims(grid), dims(block), shared, stream(s), params, "
      "std::index_sequence_for<P...>{});\n"
      "  C10_CUDA_KERNEL_LAUNCH_CHECK();\n"
      "}\n"
      "}  // namespace kscope_launch\n"
      "PYBIND11_MODULE(TORCH_EXTENSION_NAME, m) {\n";
  for (const std::string& k : kernels)
    s += "  m.def(\"" + k +
         "\", [](const pybind11::args& a, const pybind11::kwargs& kw) {\n"
         "    kscope_launch::fromPython(&" +
         k +
         ", a, kw);\n"
         "  });\n";
  for (const std::string& h : hosts) s += "  m.def(\"" + h + "\", &" + h + ", \"" + h + "\");\n";
  return s + "}\n";
}

class Repairer {
 public:
  Repairer(const std::string& program, const RepairOptions& options)
      : text_(program), options_(options), m_(PyModule::parse(program)), x_(extractEmbedded(m_)) {}

  ProgramRepair run() {
    ProgramRepair out;
    cppStrings();
    archFlags();
    for (const py::Call& c : m_.calls())
      if (c.resolved.size() >= 11 && c.resolved.compare(c.resolved.size() - 11, 11, "load_inline") == 0)
        loadInline(c);
    std::sort(edits_.begin(), edits_.end(), [](const Edit& a, const Edit& b) { return a.begin > b.begin; });
    std::string program = text_;
    std::size_t limit = std::string::npos;
    for (const Edit& e : edits_) {
      if (e.end > limit) continue;  // overlaps an edit applied already (cannot happen by construction)
      program.replace(e.begin, e.end - e.begin, e.text);
      limit = e.begin;
    }
    std::sort(repairs_.begin(), repairs_.end(), [](const Repair& a, const Repair& b) {
      return (a.lines.empty() ? 0 : a.lines.front()) < (b.lines.empty() ? 0 : b.lines.front());
    });
    out.repairs = std::move(repairs_);
    out.notRepaired = std::move(notRepaired_);
    if (!out.repairs.empty()) {
      out.diff = unifiedDiff(text_, program, options_.fileName);
      out.program = std::move(program);
    } else {
      out.program = text_;
    }
    return out;
  }

 private:
  const std::string& text_;
  const RepairOptions& options_;
  PyModule m_;
  EmbeddedExtraction x_;
  std::vector<Edit> edits_;
  std::vector<Repair> repairs_;
  std::vector<std::string> notRepaired_;

  const py::Token& tok(int i) const { return m_.tokens()[static_cast<std::size_t>(i)]; }
  std::size_t beginOf(TokenRange r) const { return tok(r.begin).begin; }
  std::size_t endOf(TokenRange r) const { return tok(r.end - 1).end; }

  void addRepair(RepairKind kind, std::string what, std::vector<int> lines) {
    std::sort(lines.begin(), lines.end());
    lines.erase(std::unique(lines.begin(), lines.end()), lines.end());
    for (Repair& r : repairs_)
      if (r.kind == kind && r.what == what) {
        r.lines.insert(r.lines.end(), lines.begin(), lines.end());
        std::sort(r.lines.begin(), r.lines.end());
        r.lines.erase(std::unique(r.lines.begin(), r.lines.end()), r.lines.end());
        return;
      }
    repairs_.push_back({kind, std::move(what), std::move(lines)});
  }

  // ---- Rewrites inside the C++/CUDA string literals ------------------------------------------------------
  void cppStrings() {
    std::vector<std::pair<int, int>> spans;  // Python lines of the embedded sources
    for (const EmbeddedSource& s : x_.sources)
      if (!s.pythonLines.empty()) spans.emplace_back(s.pythonLines.front(), s.pythonLines.back());
    bool hasContextHeader = false;
    for (const EmbeddedSource& s : x_.sources)
      if (s.text.find("ATen/cuda/CUDAContext.h") != std::string::npos) hasContextHeader = true;
    struct Rule {
      std::regex re;
      const char* replacement;
      const char* what;
    };
    static const std::vector<Rule> rules = {
        {std::regex("(AT_DISPATCH_\\w+\\s*\\(\\s*[A-Za-z_][\\w.]*(?:\\(\\))?(?:->\\w+)?)\\.type\\(\\)"),
         "$1.scalar_type()", "AT_DISPATCH_*(x.type(), ...) -> x.scalar_type()"},
        {std::regex("\\.type\\(\\)\\.is_cuda\\(\\)"), ".is_cuda()", ".type().is_cuda() -> .is_cuda()"},
        {std::regex("\\.type\\(\\)\\.scalarType\\(\\)"), ".scalar_type()",
         ".type().scalarType() -> .scalar_type()"},
        {std::regex("\\.data<([\\w:\\s*]+)>\\(\\)"), ".data_ptr<$1>()", ".data<T>() -> .data_ptr<T>()"},
        {std::regex("\\bAT_CHECK\\s*\\("), "TORCH_CHECK(", "AT_CHECK -> TORCH_CHECK"},
    };
    bool headerAdded = false;
    for (int i = 0; i < static_cast<int>(m_.tokens().size()); ++i) {
      const py::Token& t = tok(i);
      if (t.kind != TokenKind::String) continue;
      const int line = t.line;
      if (std::none_of(spans.begin(), spans.end(),
                       [&](auto s) { return line >= s.first - 1 && line <= s.second; }))
        continue;
      std::string raw = text_.substr(t.begin, t.end - t.begin);
      std::string changed = raw;
      for (const Rule& rule : rules) {
        std::vector<int> lines;
        for (auto it = std::sregex_iterator(changed.begin(), changed.end(), rule.re);
             it != std::sregex_iterator(); ++it)
          lines.push_back(lineOf(
              text_,
              t.begin + std::min<std::size_t>(raw.size() - 1, static_cast<std::size_t>(it->position(0)))));
        if (lines.empty()) continue;
        changed = std::regex_replace(changed, rule.re, rule.replacement);
        addRepair(RepairKind::RemovedTensorApi, rule.what, lines);
      }
      // at::cuda::getCurrentCUDAStream and AT_CUDA_CHECK (ATen/cuda/Exceptions.h) come with CUDAContext.h.
      const char* needsContext = changed.find("at::cuda::getCurrentCUDAStream") != std::string::npos
                                     ? "at::cuda::getCurrentCUDAStream"
                                 : changed.find("AT_CUDA_CHECK") != std::string::npos ? "AT_CUDA_CHECK"
                                                                                      : nullptr;
      if (!hasContextHeader && !headerAdded && needsContext && raw.find('\n') != std::string::npos) {
        // After the last #include line of the literal (or at its top), on a line of its own.
        std::size_t at = changed.rfind("#include");
        at = at == std::string::npos ? changed.find('\n') : changed.find('\n', at);
        if (at != std::string::npos) {
          changed.insert(at + 1, "#include <ATen/cuda/CUDAContext.h>\n");
          headerAdded = true;
          addRepair(
              RepairKind::MissingHeader,
              std::string(needsContext) + " is used without its header: #include <ATen/cuda/CUDAContext.h>",
              {lineOf(text_, t.begin + std::min(at, raw.size() - 1))});
        }
      }
      if (changed != raw) edits_.push_back({t.begin, t.end, changed});
    }
  }

  // ---- Architecture flags ---------------------------------------------------------------------------------
  void archFlags() {
    const std::string target = options_.arch.rfind("sm_", 0) == 0 ? options_.arch.substr(3) : options_.arch;
    static const std::regex arch("\\b(sm|compute)_(\\d+[a-z]?)\\b");
    for (const py::Call& c : m_.calls()) {
      if (c.resolved.find("cpp_extension") == std::string::npos && c.callee.find("load") == std::string::npos)
        continue;
      for (const py::Argument& a : c.args) {
        if (a.keyword != "extra_cuda_cflags" && a.keyword != "extra_cflags") continue;
        for (int i = a.value.begin; i < a.value.end; ++i) {
          if (tok(i).kind != TokenKind::String) continue;
          auto value = m_.stringValue({i, i + 1});
          if (!value || value->text.find('\n') != std::string::npos) continue;
          const std::string flag = value->text;
          const bool isArchFlag = std::regex_search(
              flag,
              std::regex("^(-arch|--gpu-architecture|-gencode|--generate-code|arch=|-code|sm_|compute_)"));
          if (!isArchFlag || !std::regex_search(flag, arch)) continue;
          const std::string fixed = std::regex_replace(flag, arch, "$1_" + target);
          if (fixed == flag) continue;
          edits_.push_back({tok(i).begin, tok(i).end, pythonLiteral(fixed)});
          addRepair(RepairKind::ArchFlags,
                    "\"" + flag + "\" -> \"" + fixed + "\" (the local GPU's architecture)", {tok(i).line});
        }
      }
    }
  }

  // ---- The load_inline call: bound functions and modules
  // ---------------------------------------------------
  const py::Argument* argumentOf(const py::Call& c, const char* keyword, int position) const {
    int positional = 0;
    for (const py::Argument& a : c.args) {
      if (a.stars != 0) continue;
      if (a.keyword.empty()) {
        if (positional++ == position) return &a;
      } else if (a.keyword == keyword) {
        return &a;
      }
    }
    return nullptr;
  }

  // Appends C++ text (`literal`, a Python string literal) to the sources argument `a` so that it joins the
  // same file: a blank literal is replaced, the last element of a list literal gets `+ literal`, a list
  // variable gets `+ [literal]`, a string expression `+ literal`. The text compiles as one with what it
  // follows, as torch joins a call's sources into one file.
  void appendSource(const py::Call& c, const py::Argument& a, const std::string& literal) {
    const std::size_t begin = beginOf(a.value), end = endOf(a.value);
    const std::string written = text_.substr(begin, end - begin);
    if (auto v = m_.stringValue(a.value); v && v->text.find_first_not_of(" \t\r\n") == std::string::npos) {
      edits_.push_back({begin, end, literal});
      return;
    }
    if ((written.front() == '[' || written.front() == '(') &&
        m_.matchingBracket(a.value.begin) == a.value.end - 1) {
      const auto elements = m_.split(TokenRange{a.value.begin + 1, a.value.end - 1}, ",");
      for (auto it = elements.rbegin(); it != elements.rend(); ++it)
        if (!it->empty()) {
          edits_.push_back({endOf(*it), endOf(*it), " + " + literal});
          return;
        }
      edits_.push_back({end - 1, end - 1, literal});
      return;
    }
    bool list = false;
    if (a.value.size() == 1 && tok(a.value.begin).kind == TokenKind::Name)
      if (const py::Assignment* as = m_.reachingAssignment(written, c.statement); as && !as->value.empty())
        list = m_.tokenText(as->value.begin) == "[" || m_.tokenText(as->value.begin) == "(";
    const bool simple = a.value.size() == 1 || m_.split(a.value, "+").size() > 1;
    edits_.push_back(
        {begin, end,
         (simple ? written : "(" + written + ")") + (list ? " + [" + literal + "]" : " + " + literal)});
  }

  // CUDA passed as cpp_sources with no cuda_sources (CUDA-L1 L1/95): torch writes it to main.cpp and g++
  // rejects threadIdx and <<<...>>>. The same text becomes cuda_sources (compiled by nvcc) and cpp_sources
  // "" — nothing in it changes. Only for a cpp_sources= keyword: a positional one stays (notRepaired).
  bool moveCudaOutOfCppSources(const py::Call& c, const std::string& cpp, const std::string& cuda,
                               const std::string& where) {
    const py::Argument* cudaArg = argumentOf(c, "cuda_sources", 2);
    if (cudaArg != nullptr) {
      auto v = m_.stringValue(cudaArg->value);
      if (!v || v->text.find_first_not_of(" \t\r\n") != std::string::npos) return false;
    }
    if (cuda.find_first_not_of(" \t\r\n") != std::string::npos) return false;
    static const std::regex cudaOnly("__global__|<<<|\\b(threadIdx|blockIdx|blockDim)\\b");
    if (!std::regex_search(cpp, cudaOnly)) return false;
    const py::Argument* cppArg = argumentOf(c, "cpp_sources", 1);
    if (cppArg == nullptr) return false;
    if (cppArg->keyword.empty() || cudaArg != nullptr) {
      notRepaired_.push_back(where + ": the CUDA code is passed as cpp_sources by position (or beside an empty "
                             "cuda_sources); it stays");
      return false;
    }
    const std::size_t begin = beginOf(cppArg->value);  // an insertion: edits inside the value still apply
    edits_.push_back({begin, begin, "\"\", cuda_sources="});
    addRepair(RepairKind::CudaInCppSources,
              where + ": the CUDA code passed as cpp_sources becomes cuda_sources (compiled by nvcc), "
                      "cpp_sources \"\"",
              {tok(cppArg->value.begin).line});
    return true;
  }

  void loadInline(const py::Call& c) {
    const InlineExtension* ext = nullptr;
    for (const InlineExtension& e : x_.extensions)
      if (e.line == c.line) ext = &e;
    if (ext == nullptr) return;
    std::string cpp, cuda;
    for (int i : ext->sources) {
      const EmbeddedSource& s = x_.sources[static_cast<std::size_t>(i)];
      (s.language == "cpp" ? cpp : cuda) += s.text + "\n";
    }
    const std::string where = "load_inline(name=\"" + ext->module + "\") at line " + std::to_string(c.line);
    const bool moved = moveCudaOutOfCppSources(c, cpp, cuda, where);
    if (moved) std::swap(cpp, cuda);
    const py::Argument* functions = argumentOf(c, "functions", 3);
    if (functions == nullptr || ext->functions.empty()) return;
    const int functionsLine = tok(functions->value.begin).line;
    const bool hasModule = (cpp + cuda).find("PYBIND11_MODULE") != std::string::npos;
    if (hasModule) {
      if (functions->keyword.empty()) {
        notRepaired_.push_back(where + ": functions= is passed by position; the duplicate module stays");
        return;
      }
      edits_.push_back({beginOf(functions->value), endOf(functions->value), "None"});
      addRepair(RepairKind::DropGeneratedModule,
                where +
                    ": the sources define PYBIND11_MODULE, so functions= (a second, generated module) "
                    "becomes None",
                {functionsLine});
      return;
    }
    std::vector<std::string> kernels, hosts, undeclared;
    for (const std::string& f : ext->functions) {
      if (definesKernel(cuda, f) || definesKernel(cpp, f)) {
        if (kernelIsTemplate(cuda, f)) {
          notRepaired_.push_back(where + ": bound kernel " + f +
                                 " is a template: which instance to launch is not known");
          return;
        }
        kernels.push_back(f);
      } else {
        hosts.push_back(f);
        if (!declares(cpp, f)) undeclared.push_back(f);
      }
    }
    if (!kernels.empty()) {
      if (functions->keyword.empty() || argumentOf(c, "cuda_sources", 2) == nullptr || moved) {
        notRepaired_.push_back(where + ": functions= or cuda_sources= is passed by position");
        return;
      }
      for (const std::string& h : hosts)
        if (!declares(cuda, h)) {
          notRepaired_.push_back(where + ": bound function " + h + " is defined in no CUDA source");
          return;
        }
      appendSource(c, *argumentOf(c, "cuda_sources", 2),
                   "r\"\"\"" + launcherSource(kernels, hosts) + "\"\"\"");
      edits_.push_back({beginOf(functions->value), endOf(functions->value), "None"});
      std::string names;
      for (const std::string& k : kernels) names += (names.empty() ? "" : ", ") + k;
      addRepair(RepairKind::KernelLauncher,
                where + ": functions= binds the __global__ kernel" + (kernels.size() > 1 ? "s " : " ") +
                    names +
                    "; a host launcher (grid, block, shared memory, stream, the kernel's arguments) is bound "
                    "under the "
                    "same name",
                {functionsLine, tok(argumentOf(c, "cuda_sources", 2)->value.begin).line});
      return;
    }
    if (undeclared.empty()) return;
    const py::Argument* cppArg = argumentOf(c, "cpp_sources", 1);
    if (moved) {
      notRepaired_.push_back(where + ": the bound functions are not declared, and cpp_sources became cuda_sources");
      return;
    }
    if (cppArg == nullptr) {
      notRepaired_.push_back(where + ": no cpp_sources argument to declare the bound functions in");
      return;
    }
    std::string declarations, what;
    for (const std::string& f : undeclared) {
      std::string why;
      auto d = declarationOf(cuda, f, why);
      if (!d) {
        notRepaired_.push_back(where + ": " + why);
        return;
      }
      declarations += (declarations.empty() ? "" : "\n") + *d;
      what += (what.empty() ? "" : " ") + *d;
    }
    appendSource(c, *cppArg, pythonLiteral("\n" + declarations + "\n"));
    addRepair(RepairKind::DeclareBoundFunctions,
              where + ": declared in cpp_sources, from the definitions: " + what,
              {tok(cppArg->value.begin).line});
  }
};

}  // namespace

const char* repairKindName(RepairKind k) {
  for (const auto& [kind, name] : kKinds)
    if (kind == k) return name;
  return "unknown";
}

std::optional<RepairKind> repairKindFromName(std::string_view name) {
  for (const auto& [kind, n] : kKinds)
    if (name == n) return kind;
  return std::nullopt;
}

ProgramRepair repairProgram(const std::string& program, const RepairOptions& options) {
  return Repairer(program, options).run();
}

nlohmann::json toJson(const Repair& r) {
  return {{"kind", repairKindName(r.kind)}, {"what", r.what}, {"lines", r.lines}};
}

std::optional<Repair> repairFromJson(const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("kind") || !j["kind"].is_string()) return std::nullopt;
  auto kind = repairKindFromName(j["kind"].get<std::string>());
  if (!kind) return std::nullopt;
  Repair r;
  r.kind = *kind;
  r.what = j.value("what", "");
  if (j.contains("lines") && j["lines"].is_array())
    for (const auto& l : j["lines"])
      if (l.is_number_integer()) r.lines.push_back(l.get<int>());
  return r;
}

std::string describeRepairs(const std::vector<Repair>& repairs) {
  std::string out;
  for (const Repair& r : repairs) {
    out += repairKindName(r.kind);
    if (!r.lines.empty()) {
      out += r.lines.size() == 1 ? " (line " : " (lines ";
      for (std::size_t i = 0; i < r.lines.size(); ++i) out += (i ? ", " : "") + std::to_string(r.lines[i]);
      out += ")";
    }
    out += ": " + r.what + "\n";
  }
  return out;
}

}  // namespace ks::repair
