#include "core/formats/run_format_scan.h"

#include <charconv>
#include <climits>
#include <cmath>
#include <cstring>
#include <limits>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace ks {
namespace {

constexpr int kMaxSkipDepth = 64;  // deeper unknown values go to the JSON reader (and its nesting check)

// The first byte in [p, end) that is not plain printable ASCII inside a string (>= 0x80, < 0x20, '"' or
// '\\'), or the last 15 bytes' start when there is none in the whole 16-byte steps (the caller reads the rest
// byte by byte). SSE2 is part of x86-64; AVX2, where the CPU has it, does 32 bytes a step.
const char* skipPlainPortable(const char* p, const char* end) {
#if defined(__SSE2__)
  const __m128i space = _mm_set1_epi8(0x20), quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\');
  while (end - p >= 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // Signed compare: bytes >= 0x80 are negative, so "< 0x20" catches them too.
    const auto mask = static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(
        _mm_cmplt_epi8(v, space), _mm_or_si128(_mm_cmpeq_epi8(v, quote), _mm_cmpeq_epi8(v, backslash)))));
    if (mask != 0) return p + __builtin_ctz(mask);
    p += 16;
  }
#else
  for (; end - p >= 16; ++p) {
    const auto c = static_cast<unsigned char>(*p);
    if (c < 0x20 || c >= 0x80 || c == '"' || c == '\\') return p;
  }
#endif
  return p;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
__attribute__((target("avx2"))) const char* skipPlainAvx2(const char* p, const char* end) {
  const __m256i space = _mm256_set1_epi8(0x20), quote = _mm256_set1_epi8('"'),
                backslash = _mm256_set1_epi8('\\');
  while (end - p >= 32) {
    const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
    const __m256i special =
        _mm256_or_si256(_mm256_cmpgt_epi8(space, v),
                        _mm256_or_si256(_mm256_cmpeq_epi8(v, quote), _mm256_cmpeq_epi8(v, backslash)));
    const auto mask = static_cast<unsigned>(_mm256_movemask_epi8(special));
    if (mask != 0) return p + __builtin_ctz(mask);
    p += 32;
  }
  return skipPlainPortable(p, end);
}

using SkipPlain = const char* (*)(const char*, const char*);
const SkipPlain skipPlain = [] {
  __builtin_cpu_init();  // this runs as a static initializer, maybe before libgcc's own
  return __builtin_cpu_supports("avx2") ? skipPlainAvx2 : skipPlainPortable;
}();
#else
const auto skipPlain = skipPlainPortable;
#endif

inline int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Length of the valid UTF-8 sequence at p (first byte >= 0x80), 0 when invalid (overlong forms, surrogates,
// code points above U+10FFFF, cut short), as RFC 3629 and the JSON reader have it.
inline int utf8Sequence(const unsigned char* p, const unsigned char* end) {
  const unsigned char c = p[0];
  const auto cont = [&](int i) { return p + i < end && (p[i] & 0xC0) == 0x80; };
  if (c >= 0xC2 && c <= 0xDF) return cont(1) ? 2 : 0;
  if (c == 0xE0) return p + 1 < end && p[1] >= 0xA0 && p[1] <= 0xBF && cont(2) ? 3 : 0;
  if ((c >= 0xE1 && c <= 0xEC) || c == 0xEE || c == 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (c == 0xED) return p + 1 < end && p[1] >= 0x80 && p[1] <= 0x9F && cont(2) ? 3 : 0;
  if (c == 0xF0) return p + 1 < end && p[1] >= 0x90 && p[1] <= 0xBF && cont(2) && cont(3) ? 4 : 0;
  if (c >= 0xF1 && c <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (c == 0xF4) return p + 1 < end && p[1] >= 0x80 && p[1] <= 0x8F && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

class Scanner {
 public:
  explicit Scanner(std::string_view line)
      : begin_(line.data()), p_(line.data()), end_(line.data() + line.size()) {}

  std::size_t position() const { return static_cast<std::size_t>(p_ - begin_); }
  void space() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r')) ++p_;
  }
  bool atEnd() {
    space();
    return p_ == end_;
  }
  bool take(char c) {
    space();
    if (p_ < end_ && *p_ == c) {
      ++p_;
      return true;
    }
    return false;
  }
  bool peek(char c) {
    space();
    return p_ < end_ && *p_ == c;
  }
  bool null() {
    space();
    if (end_ - p_ >= 4 && std::memcmp(p_, "null", 4) == 0) {
      p_ += 4;
      return true;
    }
    return false;
  }

  // A string without escapes (ids, names, keys); false for anything else, escapes included.
  bool plainString(std::string_view& out) {
    if (!take('"')) return false;
    const char* start = p_;
    while (p_ < end_) {
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        out = std::string_view(start, static_cast<std::size_t>(p_ - start));
        ++p_;
        return true;
      }
      if (c == '\\' || c < 0x20) return false;
      if (c >= 0x80) {
        const int n = utf8Sequence(reinterpret_cast<const unsigned char*>(p_),
                                   reinterpret_cast<const unsigned char*>(end_));
        if (n == 0) return false;
        p_ += n;
      } else {
        ++p_;
      }
    }
    return false;
  }

  // Any valid JSON string, not decoded: `start` and `length` of its inside (between the quotes).
  bool rawString(std::size_t& start, std::size_t& length) {
    if (!take('"')) return false;
    const char* first = p_;
    while (true) {
      p_ = skipPlain(p_, end_);
      if (p_ >= end_) return false;
      const auto c = static_cast<unsigned char>(*p_);
      if (c == '"') {
        start = static_cast<std::size_t>(first - begin_);
        length = static_cast<std::size_t>(p_ - first);
        ++p_;
        return true;
      }
      if (c == '\\') {
        if (end_ - p_ < 2) return false;
        const char e = p_[1];
        if (e == 'u') {
          if (end_ - p_ < 6) return false;
          int code = 0;
          for (int i = 2; i < 6; ++i) {
            const int h = hexValue(p_[i]);
            if (h < 0) return false;
            code = code * 16 + h;
          }
          if (code >= 0xD800 && code <= 0xDFFF) return false;  // surrogate pairs: the JSON reader checks them
          p_ += 6;
        } else if (e == '"' || e == '\\' || e == '/' || e == 'b' || e == 'f' || e == 'n' || e == 'r' ||
                   e == 't') {
          p_ += 2;
        } else {
          return false;
        }
      } else if (c < 0x20) {
        return false;
      } else if (c >= 0x80) {
        const int n = utf8Sequence(reinterpret_cast<const unsigned char*>(p_),
                                   reinterpret_cast<const unsigned char*>(end_));
        if (n == 0) return false;
        p_ += n;
      } else {
        ++p_;
      }
    }
  }

  // A JSON number as the JSON reader reads it: `integral` when it has neither fraction nor exponent.
  bool number(double& value, bool& integral, std::int64_t& integer) {
    space();
    const char* start = p_;
    if (p_ < end_ && *p_ == '-') ++p_;
    if (p_ >= end_) return false;
    if (*p_ == '0') {
      ++p_;
    } else if (*p_ >= '1' && *p_ <= '9') {
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    } else {
      return false;
    }
    integral = true;
    if (p_ < end_ && *p_ == '.') {
      integral = false;
      ++p_;
      if (p_ >= end_ || *p_ < '0' || *p_ > '9') return false;
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    if (p_ < end_ && (*p_ == 'e' || *p_ == 'E')) {
      integral = false;
      ++p_;
      if (p_ < end_ && (*p_ == '+' || *p_ == '-')) ++p_;
      if (p_ >= end_ || *p_ < '0' || *p_ > '9') return false;
      while (p_ < end_ && *p_ >= '0' && *p_ <= '9') ++p_;
    }
    if (integral) {
      // Beyond 64 bits the JSON reader reads a float; leave such lines to it.
      const auto [ptr, ec] = std::from_chars(start, p_, integer);
      if (ec != std::errc() || ptr != p_) return false;
      value = static_cast<double>(integer);
      return true;
    }
    const auto [ptr, ec] = std::from_chars(start, p_, value);
    return ec == std::errc() && ptr == p_ && std::isfinite(value);
  }

  // Any JSON value, checked as the JSON reader would and passed over.
  bool skipValue(int depth) {
    if (depth > kMaxSkipDepth) return false;
    space();
    if (p_ >= end_) return false;
    switch (*p_) {
      case '"': {
        std::size_t start, length;
        return rawString(start, length);
      }
      case '{': {
        ++p_;
        if (take('}')) return true;
        do {
          std::size_t start, length;
          if (!rawString(start, length) || !take(':') || !skipValue(depth + 1)) return false;
        } while (take(','));
        return take('}');
      }
      case '[': {
        ++p_;
        if (take(']')) return true;
        do {
          if (!skipValue(depth + 1)) return false;
        } while (take(','));
        return take(']');
      }
      case 't':
        return literal("true");
      case 'f':
        return literal("false");
      case 'n':
        return literal("null");
      default: {
        double value;
        bool integral;
        std::int64_t integer;
        return number(value, integral, integer);
      }
    }
  }

 private:
  bool literal(const char* word) {
    const std::size_t n = std::strlen(word);
    if (static_cast<std::size_t>(end_ - p_) < n || std::memcmp(p_, word, n) != 0) return false;
    p_ += n;
    return true;
  }

  const char* begin_;
  const char* p_;
  const char* end_;
};

// Each key may appear once: a repeated one goes to the JSON reader.
class Seen {
 public:
  bool first(int key) {
    const unsigned bit = 1u << key;
    if (mask_ & bit) return false;
    mask_ |= bit;
    return true;
  }

 private:
  unsigned mask_ = 0;
};

// A positive finite number, or null (absent).
bool optionalPositive(Scanner& s, std::optional<double>& out) {
  if (s.null()) return true;
  double value;
  bool integral;
  std::int64_t integer;
  if (!s.number(value, integral, integer) || !(value > 0)) return false;
  out = value;
  return true;
}

bool optionalName(Scanner& s, CandidateScan& scan, SharedString& out) {
  if (s.null()) return true;
  std::string_view text;
  if (!s.plainString(text)) return false;
  out = scan.names.get(text);
  return true;
}

bool scanMeasurement(Scanner& s, CandidateScan& scan, Measurement& m) {
  if (!s.take('{')) return false;
  Seen seen;
  if (!s.take('}')) {
    do {
      std::string_view key;
      if (!s.plainString(key) || !s.take(':')) return false;
      bool ok;
      if (key == "baseline") {
        ok = seen.first(0) && optionalName(s, scan, m.baseline);  // null reads as absent: "default"
      } else if (key == "speedup") {
        ok = seen.first(1) && optionalPositive(s, m.speedup);
      } else if (key == "baseline_ms") {
        ok = seen.first(2) && optionalPositive(s, m.baselineMs);
      } else if (key == "candidate_ms") {
        ok = seen.first(3) && optionalPositive(s, m.candidateMs);
      } else if (key == "device") {
        ok = seen.first(4) && optionalName(s, scan, m.device);
      } else if (key == "origin") {
        ok = seen.first(5) && optionalName(s, scan, m.origin);
      } else if (key == "when") {
        ok = seen.first(6) && optionalName(s, scan, m.when);
      } else if (key == "mode") {
        ok = seen.first(7) && optionalName(s, scan, m.mode);
      } else if (key == "outcome") {
        ok = seen.first(8) && optionalName(s, scan, m.outcome);
      } else if (key == "error") {
        ok = seen.first(9) && optionalName(s, scan, m.error);
      } else {
        ok = s.skipValue(1);
      }
      if (!ok) return false;
    } while (s.take(','));
    if (!s.take('}')) return false;
  }
  // What the JSON reader would complain or warn about: let it.
  if (m.origin != "recorded" && m.origin != "measured") return false;
  if (!m.outcome.empty() && m.outcome != "correct" && m.outcome != "incorrect" && m.outcome != "error")
    return false;
  const bool failed = m.outcome == "incorrect" || m.outcome == "error";
  if (!failed && !m.speedup && !(m.baselineMs && m.candidateMs)) return false;
  return true;
}

}  // namespace

bool scanCandidateLine(std::string_view line, std::uint64_t offset, CandidateScan& scan, std::string& taskKey,
                       Candidate& c) {
  Scanner s(line);
  if (!s.take('{')) return false;
  enum Key { Type, Task, Id, Parents, Step, Language, Code, Analysis, Measurements };
  Seen seen;
  bool isCandidate = false, hasTask = false, hasId = false;
  if (s.peek('}')) return false;
  do {
    std::string_view key;
    if (!s.plainString(key) || !s.take(':')) return false;
    if (key == "kscope_run") return false;  // the JSON reader takes such a line for a header
    if (key == "type") {
      std::string_view type;
      if (!seen.first(Type) || !s.plainString(type) || type != "candidate") return false;
      isCandidate = true;
    } else if (key == "task") {
      std::string_view task;
      if (!seen.first(Task) || !s.plainString(task)) return false;
      taskKey.assign(task);
      hasTask = true;
    } else if (key == "id") {
      std::string_view id;
      if (!seen.first(Id) || !s.plainString(id)) return false;
      c.id.assign(id);
      hasId = true;
    } else if (key == "parents") {
      if (!seen.first(Parents)) return false;
      if (!s.null()) {
        if (!s.take('[')) return false;
        if (!s.take(']')) {
          do {
            std::string_view parent;
            if (!s.plainString(parent)) return false;
            c.parents.emplace_back(parent);
          } while (s.take(','));
          if (!s.take(']')) return false;
        }
      }
    } else if (key == "step") {
      if (!seen.first(Step)) return false;
      if (!s.null()) {
        double value;
        bool integral;
        std::int64_t integer;
        if (!s.number(value, integral, integer) || !integral || integer < INT_MIN || integer > INT_MAX)
          return false;
        c.step = static_cast<int>(integer);
      }
    } else if (key == "language") {
      if (!seen.first(Language)) return false;
      if (!s.null()) {
        std::string_view language;
        if (!s.plainString(language)) return false;
        if (language == "cuda")
          c.language = CodeLanguage::Cuda;
        else if (language != "python")
          return false;
      }
    } else if (key == "code" || key == "analysis") {
      const bool code = key == "code";
      if (!seen.first(code ? Code : Analysis)) return false;
      if (!s.null()) {
        std::size_t start, length;
        if (!s.rawString(start, length) || length > std::numeric_limits<std::uint32_t>::max()) return false;
        ProgramText text(scan.file, offset + start, static_cast<std::uint32_t>(length));
        if (code)
          c.code = std::move(text);
        else if (length > 0)  // an empty analysis is none
          c.analysis = std::move(text);
      }
    } else if (key == "measurements") {
      if (!seen.first(Measurements)) return false;
      if (!s.null()) {
        if (!s.take('[')) return false;
        if (!s.take(']')) {
          do {
            if (!scanMeasurement(s, scan, c.measurements.emplace_back())) return false;
          } while (s.take(','));
          if (!s.take(']')) return false;
        }
      }
    } else if (!s.skipValue(1)) {
      return false;
    }
  } while (s.take(','));
  return s.take('}') && s.atEnd() && isCandidate && hasTask && hasId;
}

}  // namespace ks
