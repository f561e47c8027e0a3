#include "core/flags/input_flow.h"

#include <algorithm>
#include <array>

namespace ks {

namespace {

constexpr int kMaxFlowDepth = 10;

// Methods returning a view; "strided" ones usually leave it non-contiguous, after which
// contiguous()/reshape()/flatten() copy instead of returning a view.
constexpr std::array<std::string_view, 10> kViewMethods = {
    "view", "view_as", "unflatten", "squeeze", "unsqueeze", "detach", "data", "unbind", "split", "chunk"};
constexpr std::array<std::string_view, 17> kStridedViews = {
    "t",         "transpose",  "permute",  "narrow", "select",      "expand",
    "expand_as", "as_strided", "diagonal", "unfold", "movedim",     "moveaxis",
    "swapaxes",  "swapdims",   "T",        "mT",     "tensor_split"};
constexpr std::array<std::string_view, 4> kCopiesIfStrided = {"contiguous", "reshape", "reshape_as",
                                                              "flatten"};
constexpr std::array<std::string_view, 5> kViewAttributes = {"data", "T", "mT", "H", "mH"};
constexpr std::array<std::string_view, 18> kViewFunctions = {
    "torch.reshape", "torch.flatten",    "torch.squeeze",      "torch.unsqueeze", "torch.transpose",
    "torch.t",       "torch.permute",    "torch.narrow",       "torch.select",    "torch.chunk",
    "torch.split",   "torch.unbind",     "torch.tensor_split", "torch.movedim",   "torch.swapaxes",
    "torch.detach",  "torch.as_strided", "torch.diagonal"};
// Non-mutating methods whose names end in '_'.
constexpr std::array<std::string_view, 4> kNotWrites = {"requires_grad_", "share_memory_", "detach_",
                                                        "retain_grad_"};
constexpr std::array<std::string_view, 13> kMetadataAttributes = {
    "shape",   "dtype",   "device",    "is_cuda",      "ndim",     "layout", "requires_grad",
    "is_leaf", "is_meta", "is_sparse", "is_quantized", "itemsize", "names"};
// Not data_ptr(): passed to a kernel, it is how the kernel reads or writes the values.
constexpr std::array<std::string_view, 16> kMetadataMethods = {
    "size",          "dim",        "numel",          "nelement",          "stride",     "element_size",
    "is_contiguous", "get_device", "storage_offset", "is_floating_point", "is_complex", "ndimension",
    "new_zeros",     "new_ones",   "new_empty",      "new_full"};
constexpr std::array<std::string_view, 4> kMetadataFunctions = {"len", "isinstance", "type", "id"};
constexpr std::array<std::string_view, 7> kLikeFactories = {
    "torch.zeros_like", "torch.ones_like",  "torch.empty_like",  "torch.full_like",
    "torch.rand_like",  "torch.randn_like", "torch.randint_like"};
// Builtin names a function may read, space-separated.
constexpr std::string_view kBuiltins =
    " len range int float tuple list dict set min max abs sum isinstance type print zip enumerate getattr "
    "setattr hasattr super str bool round any all map sorted reversed id hash object divmod pow __name__ "
    "Exception RuntimeError ValueError TypeError NotImplementedError ";

bool builtin(std::string_view name) {
  return kBuiltins.find(" " + std::string(name) + " ") != std::string_view::npos;
}

template <std::size_t N>
bool oneOf(std::string_view s, const std::array<std::string_view, N>& list) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

std::string_view lastSegment(std::string_view dotted) {
  const std::size_t dot = dotted.rfind('.');
  return dot == std::string_view::npos ? dotted : dotted.substr(dot + 1);
}

std::string rootOf(std::string_view dotted) { return std::string(dotted.substr(0, dotted.find('.'))); }

bool plainName(std::string_view t) { return !t.empty() && t.find_first_of(".[(") == std::string_view::npos; }

}  // namespace

bool isInplaceMethod(std::string_view name) {
  return name.size() > 1 && name.back() == '_' && !name.starts_with("__") && !oneOf(name, kNotWrites);
}

InputFlow::InputFlow(const py::PyModule& m, const py::Scope& fn)
    : m_(m), fn_(fn), fnIndex_(m.scopeIndex(fn)) {
  const int end = m_.statements()[static_cast<std::size_t>(fn_.statement)].bodyEnd;
  for (const py::Assignment& a : m_.assignments()) {
    if (a.statement <= fn_.statement || a.statement >= end) continue;
    if (a.op != "=" && a.op != ":" && a.op != "as") continue;
    for (const std::string& t : a.targets)
      if (plainName(t) || (t.starts_with("self.") && plainName(t.substr(5)))) assigned_[t].push_back(&a);
  }
  collectInputWrites();
}

bool InputFlow::isInput(std::string_view name) const {
  if (name == "self" || name == "cls") return false;
  return std::find(fn_.parameters.begin(), fn_.parameters.end(), name) != fn_.parameters.end();
}

InputFlow::Origin InputFlow::origin(std::string_view name, int statement,
                                    const py::Assignment** found) const {
  const auto it = assigned_.find(name);
  const int innermost = m_.enclosingFunction(statement);
  for (int sc = innermost; sc >= 0;) {
    if (it != assigned_.end()) {
      const py::Assignment* best = nullptr;
      for (const py::Assignment* a : it->second)
        if (m_.statements()[static_cast<std::size_t>(a->statement)].scope == sc &&
            (sc != innermost || a->statement < statement))
          best = a;
      if (best != nullptr) {
        *found = best;
        return Origin::Local;
      }
    }
    const py::Scope& scope = m_.scopes()[static_cast<std::size_t>(sc)];
    if (std::find(scope.parameters.begin(), scope.parameters.end(), name) != scope.parameters.end()) {
      if (sc != fnIndex_) return Origin::Outer;
      return isInput(name) ? Origin::Input : Origin::Known;
    }
    if (sc == fnIndex_) break;
    do {
      sc = m_.scopes()[static_cast<std::size_t>(sc)].parent;
    } while (sc >= 0 && m_.scopes()[static_cast<std::size_t>(sc)].kind == py::ScopeKind::Class);
  }
  if (builtin(name) || m_.moduleAssignment(name) != nullptr) return Origin::Known;
  for (const py::Import& i : m_.imports())
    if (i.alias == name) return Origin::Known;
  for (const py::Scope& s : m_.scopes())
    if (s.name == name) return Origin::Known;  // a function or class of the program
  return Origin::Unknown;
}

InputFlow::Step InputFlow::stepOf(std::string_view member) {
  if (oneOf(member, kStridedViews)) return Step::Strided;
  if (oneOf(member, kCopiesIfStrided)) return Step::CopiesIfStrided;
  return Step::Neutral;
}

InputFlow::Chain InputFlow::chain(py::TokenRange r) const {
  Chain c;
  auto text = [&](int i) { return i >= 0 && i < r.end ? m_.tokenText(i) : std::string_view(); };
  auto isName = [&](int i) {
    return i < r.end && m_.tokens()[static_cast<std::size_t>(i)].kind == py::TokenKind::Name;
  };
  while (r.size() >= 2 && text(r.begin) == "(" && m_.matchingBracket(r.begin) == r.end - 1)
    r = py::TokenRange{r.begin + 1, r.end - 1};
  if (r.empty() || !isName(r.begin)) return c;
  int i = r.begin;
  std::string dotted(text(i));
  int last = i;
  while (text(last + 1) == "." && isName(last + 2)) {
    dotted += "." + std::string(text(last + 2));
    last += 2;
  }
  const std::string resolved = m_.resolve(dotted);
  if (resolved.starts_with("torch.") && text(last + 1) == "(") {
    // torch.reshape(x, ...), torch.relu_(x), F.relu(x, inplace=True): the first argument is the base.
    const int close = m_.matchingBracket(last + 1);
    if (close < 0 || close >= r.end) return c;
    const std::vector<py::TokenRange> args = m_.split(py::TokenRange{last + 2, close}, ",");
    const bool inplaceFn = isInplaceMethod(lastSegment(resolved)) ||
                           (resolved.starts_with("torch.nn.functional.") &&
                            std::any_of(args.begin(), args.end(), [&](py::TokenRange a) {
                              return m_.compactText(a) == "inplace=True";
                            }));
    if (args.empty() || (!oneOf(std::string_view(resolved), kViewFunctions) && !inplaceFn)) return c;
    c = chain(args.front());
    if (!c.ok) return c;
    c.steps.push_back(inplaceFn ? Step::Neutral : stepOf(lastSegment(resolved)));
    i = close + 1;
  } else {
    c.rootName = std::string(text(i));
    i += 1;
    if (c.rootName == "self" && text(i) == "." && isName(i + 1)) {
      c.rootName += "." + std::string(text(i + 1));
      i += 2;
    }
  }
  c.ok = false;
  while (i < r.end) {
    if (text(i) == "[") {
      c.steps.push_back(Step::Strided);
      i = m_.matchingBracket(i) + 1;
      if (i <= 0) return c;
      continue;
    }
    if (text(i) != "." || !isName(i + 1)) return c;
    const std::string_view member = text(i + 1);
    if (text(i + 2) == "(") {
      if (!isInplaceMethod(member) && !oneOf(member, kViewMethods) && stepOf(member) == Step::Neutral)
        return c;
      c.steps.push_back(isInplaceMethod(member) ? Step::Neutral : stepOf(member));
      i = m_.matchingBracket(i + 2) + 1;
      if (i <= 0) return c;
      continue;
    }
    if (!oneOf(member, kViewAttributes)) return c;
    c.steps.push_back(stepOf(member));
    i += 2;
  }
  c.ok = true;
  return c;
}

InputFlow::Alias InputFlow::aliasAt(py::TokenRange r, int statement, int depth) const {
  const Chain c = chain(r);
  if (!c.ok || c.rootName.starts_with("self.") || depth > kMaxFlowDepth) return {};
  const py::Assignment* a = nullptr;
  Alias base;
  switch (origin(c.rootName, statement, &a)) {
    case Origin::Input:
      base.input = c.rootName;
      break;
    case Origin::Local:
      if (a->op != "=") return {};
      base = aliasAt(a->value, a->statement, depth + 1);
      break;
    default:
      return {};
  }
  for (const Step step : c.steps) {
    if (step == Step::CopiesIfStrided && base.strided) return {};  // a copy, not a view
    base.strided = base.strided || step == Step::Strided;
  }
  return base;
}

std::string InputFlow::aliasedInput(py::TokenRange r, int statement) const {
  return aliasAt(r, statement, 0).input;
}

std::string InputFlow::stateAlias(py::TokenRange r) const {
  const Chain c = chain(r);
  return c.ok && c.rootName.starts_with("self.") ? c.rootName : std::string();
}

void InputFlow::addInputWrite(const std::string& input, std::string what, std::string op, std::string operand,
                              int statement, int line) {
  inputWrites_.push_back(
      InputWrite{input, std::move(what), std::move(op), std::move(operand), statement, line});
}

void InputFlow::collectInputWrites() {
  const int end = m_.statements()[static_cast<std::size_t>(fn_.statement)].bodyEnd;
  // Modules built with inplace=True on the class: self.relu = nn.ReLU(inplace=True).
  std::vector<std::string> inplaceModules;
  if (fn_.parent >= 0) {
    const py::Scope& cls = m_.scopes()[static_cast<std::size_t>(fn_.parent)];
    for (const py::Assignment& a : m_.assignments()) {
      if (a.targets.size() != 1 || !a.targets[0].starts_with("self.") || !m_.inScope(a.statement, &cls))
        continue;
      for (const py::Call* c : m_.callsInRange(a.value))
        if (c->resolved.starts_with("torch.nn."))
          for (const py::Argument& arg : c->args)
            if (arg.keyword == "inplace" && m_.compactText(arg.value) == "True")
              inplaceModules.push_back(a.targets[0]);
    }
  }
  for (const py::Call& c : m_.calls()) {
    if (c.statement <= fn_.statement || c.statement >= end) continue;
    const std::string_view method = lastSegment(c.callee);
    const int open = m_.matchingBracket(c.tokens.end - 1);
    if (isInplaceMethod(method) && !c.callee.starts_with("?.") && !c.callee.starts_with("()") &&
        c.callee.find('.') != std::string::npos && !m_.resolve(c.callee).starts_with("torch.") && open > 1) {
      const std::string input = aliasAt(py::TokenRange{c.tokens.begin, open - 2}, c.statement, 0).input;
      if (!input.empty())
        addInputWrite(input, c.callee, std::string(method),
                      c.args.empty() ? std::string() : m_.compactText(c.args.front().value), c.statement,
                      c.line);
    }
    const bool inplaceFunction =
        (c.resolved.starts_with("torch.") && isInplaceMethod(method)) ||
        std::find(inplaceModules.begin(), inplaceModules.end(), c.callee) != inplaceModules.end();
    bool inplaceKeyword = false;
    for (const py::Argument& a : c.args) {
      if (a.keyword == "inplace" && m_.compactText(a.value) == "True" &&
          c.resolved.starts_with("torch.nn.functional."))
        inplaceKeyword = true;
      if (a.keyword != "out") continue;
      const std::string input = aliasAt(a.value, c.statement, 0).input;
      if (!input.empty())
        addInputWrite(input, c.callee + "(out=" + m_.compactText(a.value) + ")", "", "", c.statement, c.line);
    }
    if ((inplaceFunction || inplaceKeyword) && !c.args.empty() && c.args.front().keyword.empty()) {
      const std::string input = aliasAt(c.args.front().value, c.statement, 0).input;
      if (!input.empty())
        addInputWrite(input, c.callee + (inplaceKeyword || !isInplaceMethod(method) ? " (inplace=True)" : ""),
                      "", "", c.statement, c.line);
    }
  }
  for (const py::Assignment& a : m_.assignments()) {
    if (a.statement <= fn_.statement || a.statement >= end) continue;
    for (std::size_t t = 0; t < a.targets.size(); ++t) {
      const py::TokenRange tr = a.targetRanges[t];
      if (tr.empty()) continue;
      const std::string& target = a.targets[t];
      py::TokenRange base{tr.begin, tr.begin};
      std::string what;
      if (m_.tokenText(tr.end - 1) == "]" && m_.matchingBracket(tr.end - 1) > tr.begin) {
        base.end = m_.matchingBracket(tr.end - 1);
        what = m_.compactText(base) + "[...] " + a.op;
      } else if (target.ends_with(".data")) {
        base.end = tr.end - 2;
        what = target + " " + a.op;
      } else if (a.op != "=" && a.op != ":" && a.op != "as" && plainName(target)) {
        // x += y on a tensor input is in place; a parameter used only as a number is not a tensor: a tensor
        // has attributes used, or is passed to torch.
        bool tensor = !isInput(target);
        for (const py::NameRef* n : m_.references(target, &fn_)) tensor = tensor || n->dotted != target;
        for (const py::Call* c : m_.callsIn(&fn_))
          for (const py::Argument& arg : c->args)
            tensor = tensor || (c->resolved.starts_with("torch.") && m_.compactText(arg.value) == target);
        if (!tensor) continue;
        base.end = tr.end;
        what = target + " " + a.op;
      } else {
        continue;
      }
      const std::string input = aliasAt(base, a.statement, 0).input;
      if (!input.empty()) addInputWrite(input, what, "", "", a.statement, a.line);
    }
  }
  std::sort(inputWrites_.begin(), inputWrites_.end(),
            [](const InputWrite& x, const InputWrite& y) { return x.statement < y.statement; });
}

bool InputFlow::metadataUse(const py::NameRef& n, std::size_t base) const {
  const std::size_t dot = base < n.dotted.size() && n.dotted[base] == '.' ? base : std::string::npos;
  if (dot != std::string::npos) {
    const std::string_view rest = std::string_view(n.dotted).substr(dot + 1);
    const std::string_view member = rest.substr(0, rest.find('.'));
    if (oneOf(member, kMetadataAttributes)) return true;
    return n.callee && member == rest && oneOf(member, kMetadataMethods);
  }
  const int open = n.tokens.begin - 1;
  if (open < 1 || m_.tokenText(open) != "(" || n.tokens.end >= static_cast<int>(m_.tokens().size()))
    return false;
  const std::string_view next = m_.tokenText(n.tokens.end);
  if (next != "," && next != ")") return false;
  // The first argument of len(x), isinstance(x, ...), torch.zeros_like(x, ...).
  const auto& calls = m_.calls();
  const auto first = std::lower_bound(calls.begin(), calls.end(), n.statement,
                                      [](const py::Call& c, int s) { return c.statement < s; });
  for (auto c = first; c != calls.end() && c->statement == n.statement; ++c)
    if (m_.matchingBracket(c->tokens.end - 1) == open)
      return oneOf(std::string_view(c->resolved), kMetadataFunctions) ||
             oneOf(std::string_view(c->resolved), kLikeFactories);
  return false;
}

const py::Assignment* InputFlow::binding(std::string_view name, int statement) const {
  const py::Assignment* a = nullptr;
  return origin(name, statement, &a) == Origin::Local ? a : nullptr;
}

bool InputFlow::readsInputData(py::TokenRange r, int statement) const {
  std::vector<const void*> seen;
  return readsAt(r, statement, 0, seen);
}

bool InputFlow::readsAt(py::TokenRange r, int statement, int depth, std::vector<const void*>& seen) const {
  if (depth > kMaxFlowDepth) return true;
  const auto& names = m_.names();
  const auto first = std::lower_bound(names.begin(), names.end(), r.begin,
                                      [](const py::NameRef& n, int b) { return n.tokens.begin < b; });
  for (auto it = first; it != names.end() && it->tokens.begin < r.end; ++it) {
    const py::NameRef& n = *it;
    const std::string root = rootOf(n.dotted);
    if (root == "self" || root == "cls") {
      if (n.dotted == root) continue;
      const std::string rest = n.dotted.substr(root.size() + 1);
      const std::string head = "self." + rest.substr(0, rest.find('.'));
      const py::Assignment* local = nullptr;
      if (const auto a = assigned_.find(head); a != assigned_.end())
        for (const py::Assignment* x : a->second)
          if (x->statement < statement && m_.enclosingFunction(x->statement) == fnIndex_) local = x;
      if (local != nullptr) {
        if (!constructionOnly(head, true)) return true;  // also written by other methods
        if (std::find(seen.begin(), seen.end(), local) != seen.end()) continue;
        seen.push_back(local);
        if (readsAt(local->value, local->statement, depth + 1, seen)) return true;
        for (const LocalWrite& w : writesAt(head, nullptr, depth + 1, seen))
          if (w.readsInputs) return true;
        continue;
      }
      if (!constructionOnly(head, false)) return true;
      continue;
    }
    const py::Assignment* a = nullptr;
    switch (origin(root, n.statement, &a)) {
      case Origin::Known:
        continue;
      case Origin::Input:
        if (metadataUse(n, root.size())) continue;
        return true;
      case Origin::Outer:
      case Origin::Unknown:
        return true;
      case Origin::Local:
        break;
    }
    if (metadataUse(n, root.size()) || std::find(seen.begin(), seen.end(), a) != seen.end()) continue;
    seen.push_back(a);
    if (a->op == "as" || readsAt(a->value, a->statement, depth + 1, seen)) return true;
    for (const LocalWrite& w : writesAt(root, nullptr, depth + 1, seen))
      if (w.readsInputs) return true;
  }
  return false;
}

std::vector<LocalWrite> InputFlow::writesInto(std::string_view name, bool* escapes) const {
  std::vector<const void*> seen;
  return writesAt(std::string(name), escapes, 0, seen);
}

std::vector<LocalWrite> InputFlow::writesAt(const std::string& name, bool* escapes, int depth,
                                            std::vector<const void*>& seen) const {
  std::vector<LocalWrite> out;
  if (escapes != nullptr) *escapes = false;
  const int end = m_.statements()[static_cast<std::size_t>(fn_.statement)].bodyEnd;
  auto namesLocal = [&](py::TokenRange r) {
    const auto& names = m_.names();
    const auto first = std::lower_bound(names.begin(), names.end(), r.begin,
                                        [](const py::NameRef& n, int b) { return n.tokens.begin < b; });
    for (auto it = first; it != names.end() && it->tokens.begin < r.end; ++it)
      if ((it->dotted == name || it->dotted.starts_with(name + ".")) && !metadataUse(*it, name.size()))
        return true;
    return false;
  };
  auto reads = [&](py::TokenRange r, int statement) { return readsAt(r, statement, depth + 1, seen); };
  for (const py::Call& c : m_.calls()) {
    if (c.statement <= fn_.statement || c.statement >= end) continue;
    const int open = m_.matchingBracket(c.tokens.end - 1);
    const std::string_view method = lastSegment(c.callee);
    bool receiver = false;
    if (isInplaceMethod(method) && open > 1 && !c.callee.starts_with("?.")) {
      const Chain ch = chain(py::TokenRange{c.tokens.begin, open - 2});
      receiver = ch.ok && ch.rootName == name;
    }
    bool passed = false;
    for (const py::Argument& a : c.args) passed = passed || namesLocal(a.value);
    if (!receiver && !passed) continue;
    LocalWrite w{c.statement, c.line, false};
    for (const py::Argument& a : c.args) w.readsInputs = w.readsInputs || reads(a.value, c.statement);
    out.push_back(w);
  }
  for (const py::Assignment& a : m_.assignments()) {
    if (a.statement <= fn_.statement || a.statement >= end) continue;
    for (const std::string& t : a.targets) {
      const bool into = t.starts_with(name + "[") || t.starts_with(name + ".") ||
                        (t == name && a.op != "=" && a.op != ":" && a.op != "as");
      if (into) out.push_back(LocalWrite{a.statement, a.line, reads(a.value, a.statement)});
      if (escapes != nullptr && t.starts_with("self.") && namesLocal(a.value)) *escapes = true;
    }
  }
  // Arguments of calls the parse does not record as calls, such as Triton launches `kernel[grid](x, out)`.
  for (const py::NameRef* n : m_.references(name, &fn_)) {
    if (metadataUse(*n, name.size())) continue;
    const int start = m_.statements()[static_cast<std::size_t>(n->statement)].tokens.begin;
    for (int open = n->tokens.begin - 1; open > start; --open) {
      const int close = m_.matchingBracket(open);
      if (m_.tokenText(open) != "(" || close < n->tokens.begin) continue;
      const std::string_view before = m_.tokenText(open - 1);
      if (before == "]" || before == ")") out.push_back(LocalWrite{n->statement, n->line, true});
      break;
    }
  }
  // Uses inside nested functions (closures, thread targets): whatever they do to it is unknown.
  for (const py::NameRef* n : m_.references(name, &fn_)) {
    if (m_.enclosingFunction(n->statement) == fnIndex_) continue;
    const auto same = std::find_if(out.begin(), out.end(),
                                   [&](const LocalWrite& w) { return w.statement == n->statement; });
    if (same != out.end())
      same->readsInputs = true;
    else
      out.push_back(LocalWrite{n->statement, n->line, true});
  }
  std::sort(out.begin(), out.end(),
            [](const LocalWrite& x, const LocalWrite& y) { return x.statement < y.statement; });
  return out;
}

bool InputFlow::constructionOnly(std::string_view head, bool orHere) const {
  const std::string key = std::string(head) + (orHere ? "+" : "");
  if (const auto it = constructionOnly_.find(key); it != constructionOnly_.end()) return it->second;
  bool only = true;
  const int cls = fn_.parent;
  if (cls >= 0) {
    const py::Scope& scope = m_.scopes()[static_cast<std::size_t>(cls)];
    const std::string attribute(head.substr(5));
    auto outsideInit = [&](int statement) {
      const int f = m_.enclosingFunction(statement);
      return f >= 0 && m_.scopes()[static_cast<std::size_t>(f)].name != "__init__" &&
             !(orHere && f == fnIndex_);
    };
    for (const py::NameRef* n : m_.references(head, &scope)) {
      if (!outsideInit(n->statement)) continue;
      const std::string_view prev = m_.tokenText(n->tokens.begin - 1);
      const bool argument = !n->callee && (prev == "(" || prev == "," || prev == "=");
      if (n->store || argument || (n->callee && isInplaceMethod(lastSegment(n->dotted)))) only = false;
    }
    for (const py::Call* c : m_.callsIn(&scope)) {
      if (!outsideInit(c->statement) || c->args.empty()) continue;
      const bool registers = c->callee.ends_with("register_buffer") ||
                             c->callee.ends_with("register_parameter") || c->resolved == "setattr";
      const std::size_t nameArg = c->resolved == "setattr" ? 1 : 0;
      if (registers && c->args.size() > nameArg) {
        const auto s = m_.stringValue(c->args[nameArg].value);
        if (s && s->text == attribute) only = false;
      }
    }
  }
  constructionOnly_.emplace(key, only);
  return only;
}

}  // namespace ks
