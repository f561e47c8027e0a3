#include "core/formats/gemm_tile_config.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <numeric>
#include <regex>
#include <set>
#include <system_error>
#include <utility>

#include "core/formats/anchored_regex.h"

namespace ks {
namespace {

std::string squeeze(std::string_view text) {  // whitespace runs removed, as "Swizzle<3, 3, 3>" -> "<3,3,3>"
  std::string out;
  for (char c : text)
    if (!std::isspace(static_cast<unsigned char>(c))) out += c;
  return out;
}

std::optional<std::int64_t> integer(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// The parameter a declared name stands for ("kStage" -> "stages"), or "" for names this reader ignores.
std::string classify(std::string_view name) {
  if (name.starts_with("K_") || name.starts_with("k_")) return {};  // K_STAGE: the K extent of one stage
  std::string key;
  for (char c : name)
    if (c != '_') key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  static const std::pair<const char*, std::set<std::string>> kinds[] = {
      {"BM",
       {"bm", "kbm", "blockm", "kblockm", "tilem", "ktilem", "ctam", "kctam", "blocksizem", "blockdimm"}},
      {"BN",
       {"bn", "kbn", "blockn", "kblockn", "tilen", "ktilen", "ctan", "kctan", "blocksizen", "blockdimn"}},
      {"BK",
       {"bk", "kbk", "blockk", "kblockk", "tilek", "ktilek", "ctak", "kctak", "blocksizek", "blockdimk"}},
      {"stages",
       {"kstage", "kstages", "stage", "stages", "kkstage", "numstages", "knumstages", "kpipe", "kpipestages",
        "pipestages", "kpipelinestages", "kpipemax", "kmaxpipe", "bp", "stagecount", "kstagecount"}},
      {"swizzle_stride", {"swizzlestride", "kswizzlestride", "swizzlesize", "kswizzlesize"}},
  };
  for (const auto& [kind, names] : kinds)
    if (names.count(key)) return kind;
  return {};
}

// "cute::_128" / "_128" / "Int<128>" / "cute::Int<128>" / "128" -> "128"; anything else as written.
std::string shapeExtent(std::string_view arg) {
  std::string s = squeeze(arg);
  if (s.starts_with("cute::")) s.erase(0, 6);
  if (s.starts_with("Int<") && s.ends_with(">")) return s.substr(4, s.size() - 5);
  if (s.size() > 1 && s.front() == '_' && integer(std::string_view(s).substr(1))) return s.substr(1);
  return s;
}

// The top-level arguments of the first `Shape<...>` (or `GemmShape<...>`) in `text`; empty when none.
std::vector<std::string> shapeArguments(std::string_view text) {
  const std::size_t at = text.find("Shape<");
  if (at == std::string_view::npos) return {};
  std::vector<std::string> args;
  std::string current;
  int depth = 0;
  for (std::size_t i = at + 6; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '<' || c == '(') ++depth;
    if ((c == '>' || c == ')') && depth-- == 0) {
      args.push_back(shapeExtent(current));
      return args;
    }
    if (c == ',' && depth == 0) {
      args.push_back(shapeExtent(current));
      current.clear();
    } else {
      current += c;
    }
  }
  return {};  // unterminated on this line
}

// The source with comments replaced by spaces (newlines kept), so line numbers stay.
std::string withoutComments(std::string_view source) {
  std::string out(source);
  enum { Code, Line, Block, String, Char } state = Code;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const char c = out[i], next = i + 1 < out.size() ? out[i + 1] : '\0';
    switch (state) {
      case Code:
        if (c == '/' && next == '/') {
          state = Line;
          out[i] = ' ';
        } else if (c == '/' && next == '*') {
          state = Block;
          out[i] = out[i + 1] = ' ';
          ++i;
        } else if (c == '"') {
          state = String;
        } else if (c == '\'') {
          state = Char;
        }
        break;
      case Line:
        if (c == '\n')
          state = Code;
        else
          out[i] = ' ';
        break;
      case Block:
        if (c == '*' && next == '/') {
          out[i] = out[i + 1] = ' ';
          ++i;
          state = Code;
        } else if (c != '\n') {
          out[i] = ' ';
        }
        break;
      case String:
      case Char:
        if (c == '\\') {
          ++i;
        } else if (c == (state == String ? '"' : '\'') || c == '\n') {
          state = Code;
        }
        break;
    }
  }
  return out;
}

class Collector {
 public:
  void add(std::string name, std::string value, std::string spelling, int line) {
    if (!seen_.emplace(name, value).second) return;
    TileParameter p;
    p.number = integer(value);
    p.name = std::move(name);
    p.value = std::move(value);
    p.spelling = std::move(spelling);
    p.line = line;
    config_.parameters.push_back(std::move(p));
  }
  TileConfig take() { return std::move(config_); }

 private:
  TileConfig config_;
  std::set<std::pair<std::string, std::string>> seen_;
};

// Lines longer than this are not read: libstdc++'s std::regex recurses once per character a repetition
// takes, and a line of some thousands of characters overflowed the stack (reproduced with the tests/fuzz
// cuda_l2_kernel). A declaration of a tile is short; CUDA-L2's longest line is 448 characters.
constexpr std::size_t kMaxScannedLine = 1024;

// NAME = Int<V>{} | NAME = 123 (also in template defaults and comma-separated declarations). A hand scan that
// finds the matches, with the captures, that std::sregex_iterator over the line found with
//   \b([A-Za-z_]\w*)\s*=\s*(?:(?:cute::)?Int<\s*([^<>{}]+?)\s*>\s*(?:\{\s*\}|\(\s*\))|(\d+)\b)
// Why by hand: that regex took most of the time of reading a kernel (70 % under the fuzzer), and libstdc++'s
// std::regex recurses once per character a repetition takes.
struct Assignment {
  std::string_view name;
  std::string_view value;  // the V of Int<V>, or the digits
  std::size_t end = 0;     // just past the match
};

bool isNameStart(char c) {  // [A-Za-z_]
  return isRegexWordChar(c) && !(c >= '0' && c <= '9');
}

bool isSpaceChar(char c) {  // \s in the C locale
  return c == ' ' || (c >= '\t' && c <= '\r');
}

std::size_t skipSpaces(std::string_view text, std::size_t at) {
  while (at < text.size() && isSpaceChar(text[at])) ++at;
  return at;
}

// `\s*(?:\{\s*\}|\(\s*\))` from `at`: the end, or npos.
std::size_t emptyBracesEnd(std::string_view text, std::size_t at) {
  at = skipSpaces(text, at);
  if (at == text.size() || (text[at] != '{' && text[at] != '(')) return std::string_view::npos;
  const char close = text[at] == '{' ? '}' : ')';
  at = skipSpaces(text, at + 1);
  return at < text.size() && text[at] == close ? at + 1 : std::string_view::npos;
}

// `(?:cute::)?Int<\s*([^<>{}]+?)\s*>\s*(?:\{\s*\}|\(\s*\))` at `at`. V runs to the first of <>{}, which must
// be the '>'; the lazy V leaves the spaces before it outside, unless V is nothing but spaces: then
// the \s* before it gives its last space back (`Int< >{}` reads " ").
bool intAt(std::string_view text, std::size_t at, Assignment& found) {
  if (text.substr(at).starts_with("cute::")) at += 6;
  if (!text.substr(at).starts_with("Int<")) return false;
  const std::size_t open = at + 4, close = text.find_first_of("<>{}", open);
  if (close == std::string_view::npos || text[close] != '>') return false;
  const std::size_t end = emptyBracesEnd(text, close + 1);
  if (end == std::string_view::npos) return false;
  std::size_t first = skipSpaces(text, open), last = close;
  while (last > first && isSpaceChar(text[last - 1])) --last;
  if (first == last) {
    if (open == close) return false;  // `Int<>`: V takes one character at least
    first = close - 1;
    last = close;
  }
  found.value = text.substr(first, last - first);
  found.end = end;
  return true;
}

// `(\d+)\b` at `at`.
bool digitsAt(std::string_view text, std::size_t at, Assignment& found) {
  std::size_t end = at;
  while (end < text.size() && text[end] >= '0' && text[end] <= '9') ++end;
  if (end == at || (end < text.size() && isRegexWordChar(text[end]))) return false;
  found.value = text.substr(at, end - at);
  found.end = end;
  return true;
}

// The assignment whose name starts at `at` (a word starts there), or nullopt.
std::optional<Assignment> assignmentAt(std::string_view text, std::size_t at) {
  Assignment found;
  std::size_t i = at + 1;
  while (i < text.size() && isRegexWordChar(text[i])) ++i;
  found.name = text.substr(at, i - at);
  i = skipSpaces(text, i);
  if (i == text.size() || text[i] != '=') return std::nullopt;
  i = skipSpaces(text, i + 1);
  if (intAt(text, i, found) || digitsAt(text, i, found)) return found;
  return std::nullopt;
}

// Every assignment in `text`, left to right, each search going on where the last match ended.
std::vector<Assignment> assignments(std::string_view text) {
  std::vector<Assignment> found;
  std::size_t at = 0;
  while (at < text.size()) {
    const bool nameStarts = (at == 0 || !isRegexWordChar(text[at - 1])) && isNameStart(text[at]);  // \b[A-Za-z_]
    const std::optional<Assignment> a = nameStarts ? assignmentAt(text, at) : std::nullopt;
    if (!a) {
      ++at;
      continue;
    }
    found.push_back(*a);
    at = a->end;
  }
  return found;
}

// The first `StageCount`, `StageCountAuto` or `StageCountAutoCarveout` that stands as a word, with the
// arguments of a `<...>` right after it. A hand scan that finds the match, with the captures, that
// std::regex_search found with
//   \b(StageCount(?:AutoCarveout|Auto)?)\b(?:<\s*([^<>]*?)\s*>)?
// Why by hand: the lazy argument made that regex quadratic in the line's length at each StageCount; on
// lines the fuzzer writes it took nine tenths of reading a kernel.
struct StageCountUse {
  std::string_view kind;                     // StageCount, StageCountAuto or StageCountAutoCarveout
  std::optional<std::string_view> argument;  // between <>, without the spaces around it; none without <...>
};

std::optional<StageCountUse> firstStageCount(std::string_view text) {
  constexpr std::string_view word = "StageCount";
  for (std::size_t at = text.find(word); at != std::string_view::npos; at = text.find(word, at + 1)) {
    if (at > 0 && isRegexWordChar(text[at - 1])) continue;
    const std::string_view rest = text.substr(at + word.size());
    std::size_t end = at + word.size();
    bool endsWord = false;  // the alternatives in the regex's order, each followed by \b
    for (std::string_view suffix :
         {std::string_view("AutoCarveout"), std::string_view("Auto"), std::string_view()}) {
      if (!rest.starts_with(suffix)) continue;
      const std::size_t after = at + word.size() + suffix.size();
      if (after == text.size() || !isRegexWordChar(text[after])) {
        end = after;
        endsWord = true;
        break;
      }
    }
    if (!endsWord) continue;
    StageCountUse use{text.substr(at, end - at), std::nullopt};
    if (end < text.size() && text[end] == '<') {
      const std::size_t close = text.find_first_of("<>", end + 1);
      if (close != std::string_view::npos && text[close] == '>') {
        const std::size_t first = skipSpaces(text, end + 1);
        std::size_t last = close;
        while (last > first && isSpaceChar(text[last - 1])) --last;
        use.argument = text.substr(first, last - first);
      }
    }
    return use;
  }
  return std::nullopt;
}

struct Patterns {
  std::regex define{R"(^\s*#\s*define\s+(\w+)\s+\(?\s*(\d+)\s*\)?\s*$)"};
  std::regex shapeAlias{R"(\busing\s+(\w+)\s*=\s*(.*))"};
  std::regex dimCluster{R"(\bdim3\s+(\w*[Cc]luster\w*)\s*[({]([^)}]*)[)}])"};
  std::regex swizzle{R"(\bSwizzle<\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*>)"};
  std::regex gmmaLayout{R"(\bLayout_(K|MN)_(SW\d+|INTER)_Atom\b)"};
  std::regex boolSwizzle{R"(\b(\w*[Ss]wizzle\w*)\s*=\s*(true|false)\b)"};
  std::regex mmaAtom{R"(\b(SM\d+_\d+x\d+x\d+_\w+))"};
  std::regex wmmaAccumulator{
      R"(\bwmma::fragment<\s*(?:nvcuda::)?wmma::accumulator\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*([\w:]+)\s*>)"};
  std::regex ptxMma{R"(\bmma\.sync\.aligned\.(m\d+n\d+k\d+)((?:\.\w+)*))"};
  std::regex accumulator{R"(\bElementAccumulator\s*=\s*([\w:]+))"};
  std::regex schedule{R"(\bcutlass::gemm::(Kernel\w+))"};
  std::regex tileScheduler{R"(\bcutlass::gemm::(\w*Scheduler\w*))"};
  std::regex entry{R"(\bvoid\s+(cuda_l2_\w+)\s*\(\s*(?:torch::Tensor|$))"};
};

const Patterns& patterns() {
  static const Patterns p;
  return p;
}

bool contains(std::string_view line, std::string_view what) {
  return line.find(what) != std::string_view::npos;
}

void scanLine(const std::string& text, int line, Collector& out) {
  const Patterns& p = patterns();
  std::smatch m;
  if (contains(text, "=")) {
    for (const Assignment& a : assignments(text)) {
      const std::string kind = classify(a.name);
      if (kind.empty()) continue;
      out.add(kind, squeeze(a.value), std::string(a.name), line);
    }
  }
  if (contains(text, "define") && std::regex_search(text, m, p.define)) {
    if (const std::string kind = classify(m[1].str()); !kind.empty())
      out.add(kind, m[2].str(), m[1].str(), line);
  }
  if (contains(text, "Shape") && anchoredSearch(text, "using", Anchor::AtLiteral, p.shapeAlias, m)) {
    const std::string alias = m[1].str();
    const std::vector<std::string> args = shapeArguments(m[2].str());
    const bool cluster =
        contains(alias, "Cluster") || contains(alias, "WorkGroup") || contains(alias, "TileGroup");
    const bool tile = !cluster && (contains(alias, "TileShape") || contains(alias, "CtaShape") ||
                                   contains(alias, "ThreadblockShape") || contains(alias, "CTAShape"));
    if (cluster && !args.empty()) {
      std::string value;
      for (const std::string& a : args) value += (value.empty() ? "" : "x") + a;
      out.add("cluster", value, alias, line);
    } else if (tile && args.size() >= 2) {
      const char* names[] = {"BM", "BN", "BK"};
      for (std::size_t i = 0; i < args.size() && i < 3; ++i) out.add(names[i], args[i], alias, line);
    }
  }
  if (anchoredSearch(text, "dim3", Anchor::AtLiteral, p.dimCluster, m)) {
    std::string value;
    for (char c : squeeze(m[2].str())) value += c == ',' ? 'x' : c;
    out.add("cluster", value, m[1].str(), line);
  }
  if (const std::optional<StageCountUse> use = firstStageCount(text)) {
    const std::string kind(use->kind);
    if (kind == "StageCount" && use->argument)
      out.add("stages", squeeze(*use->argument), kind, line);
    else if (kind != "StageCount")
      out.add("stages", kind == "StageCountAuto" ? "auto" : "auto (shared memory left after the epilogue)",
              kind, line);
  }
  if (contains(text, "Swizzle")) {
    if (anchoredSearch(text, "Swizzle<", Anchor::AtLiteral, p.swizzle, m))
      out.add("swizzle", "Swizzle<" + m[1].str() + "," + m[2].str() + "," + m[3].str() + ">", "Swizzle",
              line);
    if (anchoredSearch(text, "wizzle", Anchor::AtWordStart, p.boolSwizzle, m))
      out.add("block_swizzle", m[2].str(), m[1].str(), line);
  } else if (contains(text, "swizzle") &&
             anchoredSearch(text, "wizzle", Anchor::AtWordStart, p.boolSwizzle, m)) {
    out.add("block_swizzle", m[2].str(), m[1].str(), line);
  }
  if (anchoredSearch(text, "Layout_", Anchor::AtLiteral, p.gmmaLayout, m))
    out.add("swizzle", "GMMA " + m[1].str() + "-major " + m[2].str(), m[0].str(), line);
  if (anchoredSearch(text, "SM", Anchor::AtLiteral, p.mmaAtom, m))
    out.add("mma", m[1].str(), "MMA atom", line);
  if (contains(text, "wmma::accumulator") &&
      anchoredSearch(text, "wmma::fragment", Anchor::AtLiteral, p.wmmaAccumulator, m)) {
    out.add("mma", "wmma " + m[1].str() + "x" + m[2].str() + "x" + m[3].str(), "wmma::fragment", line);
    out.add("accumulator", m[4].str(), "wmma::fragment", line);
  }
  if (anchoredSearch(text, "mma.sync.aligned.", Anchor::AtLiteral, p.ptxMma, m))
    out.add("mma", "mma.sync " + m[1].str() + m[2].str(), "mma.sync", line);
  if (anchoredSearch(text, "ElementAccumulator", Anchor::AtLiteral, p.accumulator, m))
    out.add("accumulator", m[1].str(), "ElementAccumulator", line);
  if (contains(text, "cutlass::gemm::")) {
    for (std::size_t from = 0;
         anchoredSearch(text, "cutlass::gemm::Kernel", Anchor::AtLiteral, p.schedule, m, from);
         from = static_cast<std::size_t>(m[0].second - text.begin()))
      out.add("schedule", m[1].str(), "schedule", line);
    if (anchoredSearch(text, "cutlass::gemm::", Anchor::AtLiteral, p.tileScheduler, m))
      out.add("tile_scheduler", m[1].str(), "scheduler", line);
  }
  if (contains(text, "cuda_l2_") && anchoredSearch(text, "void", Anchor::AtLiteral, p.entry, m))
    out.add("entry", m[1].str(), "entry", line);
}

}  // namespace

const TileParameter* TileConfig::find(std::string_view name) const {
  for (const TileParameter& p : parameters)
    if (p.name == name) return &p;
  return nullptr;
}

std::vector<const TileParameter*> TileConfig::all(std::string_view name) const {
  std::vector<const TileParameter*> found;
  for (const TileParameter& p : parameters)
    if (p.name == name) found.push_back(&p);
  return found;
}

TileConfig parseGemmTileConfig(std::string_view source) {
  const std::string code = withoutComments(source);
  Collector out;
  int line = 0;
  std::size_t start = 0;
  while (start <= code.size()) {
    const std::size_t end = std::min(code.find('\n', start), code.size());
    ++line;
    const std::string text = code.substr(start, end - start);
    if (text.size() <= kMaxScannedLine && text.find_first_not_of(" \t\r") != std::string::npos)
      scanLine(text, line, out);
    if (end == code.size()) break;
    start = end + 1;
  }
  return out.take();
}

std::optional<std::vector<std::int64_t>> gemmBlockTile(const TileConfig& config) {
  std::vector<std::int64_t> tile;
  for (const char* name : {"BM", "BN", "BK"}) {
    std::int64_t lcm = 0;
    for (const TileParameter* p : config.all(name))
      if (p->number && *p->number > 0) {
        if (lcm == 0) {
          lcm = *p->number;
        } else if (__builtin_mul_overflow(lcm / std::gcd(lcm, *p->number), *p->number, &lcm)) {
          return std::nullopt;  // no tile fits them all (std::lcm would overflow: undefined behaviour)
        }
      }
    if (lcm == 0) return std::nullopt;
    tile.push_back(lcm);
  }
  return tile;
}

namespace {

// A hand-written scan, not std::regex: libstdc++'s regex recurses once per character a repetition takes, so
// `\s*` over a long run of spaces overflowed the stack (reproduced with the tests/fuzz target
// cuda_l2_kernel).
class EntryScanner {
 public:
  explicit EntryScanner(std::string_view text) : text_(text) {}

  // `void NAME ( P , P , P , P ) {` at `at` (just past "void"); P = [const] (torch|at)::Tensor [&] NAME.
  std::optional<std::string> outEntryAt(std::size_t at) {
    pos_ = at;
    if (!spaces(true)) return std::nullopt;
    const std::string_view name = word();
    if (name.empty()) return std::nullopt;
    spaces(false);
    if (!take("(")) return std::nullopt;
    for (int i = 0; i < 4; ++i) {
      spaces(false);
      if (i > 0) {
        if (!take(",")) return std::nullopt;
        spaces(false);
      }
      if (!tensorParameter()) return std::nullopt;
    }
    spaces(false);
    if (!take(")")) return std::nullopt;
    spaces(false);
    if (!take("{")) return std::nullopt;
    return std::string(name);
  }

  static bool isWord(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

 private:
  static bool isSpace(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }

  bool spaces(bool required) {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && isSpace(text_[pos_])) ++pos_;
    return !required || pos_ > start;
  }
  std::string_view word() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && isWord(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }
  bool take(std::string_view what) {
    if (text_.substr(pos_, what.size()) != what) return false;
    pos_ += what.size();
    return true;
  }
  bool tensorParameter() {
    if (take("const")) {
      if (!spaces(true)) return false;
    }
    if (!take("torch::Tensor") && !take("at::Tensor")) return false;
    spaces(false);
    take("&");
    spaces(false);
    return !word().empty();
  }

  std::string_view text_;
  std::size_t pos_ = 0;
};

}  // namespace

std::optional<std::string> gemmOutEntry(std::string_view source) {
  std::optional<std::string> last;
  EntryScanner scanner(source);
  for (std::size_t at = source.find("void"); at != std::string_view::npos; at = source.find("void", at + 1)) {
    if (at > 0 && EntryScanner::isWord(source[at - 1])) continue;  // \bvoid
    if (std::optional<std::string> name = scanner.outEntryAt(at + 4)) last = std::move(name);
  }
  return last;
}

}  // namespace ks
