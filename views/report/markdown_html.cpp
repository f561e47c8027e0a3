#include "views/report/markdown_html.h"

#include <md4c.h>

#include <algorithm>
#include <cctype>
#include <limits>
#include <vector>

#include "views/report/code_highlight.h"

namespace ks {
namespace {

// The Analysis pane's QTextDocument::MarkdownDialectGitHub | MarkdownNoHTML, which are these md4c flags.
constexpr unsigned kFlags = MD_DIALECT_GITHUB | MD_FLAG_NOHTML;

struct Writer {
  const MarkdownHtmlOptions* options = nullptr;
  std::string out;
  int inImage = 0;           // inside an image's alt text: text only, no markup
  std::vector<bool> linked;  // per open link span: whether an <a> was written for it
};

std::string_view attributeText(const MD_ATTRIBUTE& a) { return {a.text, a.size}; }

// A link target a page may carry: the web, mail, or a place in the page. Everything else (javascript:,
// data:, vbscript:, file:, a relative path a browser would resolve against the report's folder) is not.
bool safeTarget(std::string_view href) {
  std::string lower;
  for (char c : href) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("mailto:") ||
         (lower.starts_with("#") && lower.size() > 1);
}

// An entity as md4c reports it ("&amp;", "&#60;", "&#x3C;") is passed on as it is: it cannot open markup.
// Anything else is escaped.
std::string entity(std::string_view text) {
  const auto all = [](std::string_view s, int (*is)(int)) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [is](char c) { return is(static_cast<unsigned char>(c)) != 0; });
  };
  bool wellFormed = false;
  if (text.size() >= 3 && text.front() == '&' && text.back() == ';') {
    const std::string_view name = text.substr(1, text.size() - 2);
    if (name.starts_with("#x") || name.starts_with("#X"))
      wellFormed = all(name.substr(2), std::isxdigit);
    else if (name.starts_with("#"))
      wellFormed = all(name.substr(1), std::isdigit);
    else
      wellFormed = std::isalpha(static_cast<unsigned char>(name.front())) != 0 && all(name, std::isalnum);
  }
  return wellFormed ? std::string(text) : htmlEscape(text);
}

int enterBlock(MD_BLOCKTYPE type, void* detail, void* data) {
  auto& w = *static_cast<Writer*>(data);
  switch (type) {
    case MD_BLOCK_DOC:
      break;
    case MD_BLOCK_QUOTE:
      w.out += "<blockquote>";
      break;
    case MD_BLOCK_UL:
      w.out += "<ul>";
      break;
    case MD_BLOCK_OL: {
      const unsigned start = static_cast<const MD_BLOCK_OL_DETAIL*>(detail)->start;
      w.out += start == 1 ? std::string("<ol>") : "<ol start=\"" + std::to_string(start) + "\">";
      break;
    }
    case MD_BLOCK_LI: {
      const auto* li = static_cast<const MD_BLOCK_LI_DETAIL*>(detail);
      w.out += "<li>";
      if (li->is_task) w.out += li->task_mark == ' ' ? "☐ " : "☑ ";
      break;
    }
    case MD_BLOCK_HR:
      w.out += "<hr>";
      break;
    case MD_BLOCK_H: {
      const auto level = static_cast<int>(static_cast<const MD_BLOCK_H_DETAIL*>(detail)->level);
      w.out += "<h" + std::to_string(std::clamp(level + w.options->headingShift, 1, 6)) + ">";
      break;
    }
    case MD_BLOCK_CODE:
      w.out += "<pre><code>";
      break;
    case MD_BLOCK_HTML:  // not with MD_FLAG_NOHTML; its text would be escaped all the same
      w.out += "<p>";
      break;
    case MD_BLOCK_P:
      w.out += "<p>";
      break;
    case MD_BLOCK_TABLE:
      w.out += "<table" + w.options->tableAttributes + ">";
      break;
    case MD_BLOCK_THEAD:
    case MD_BLOCK_TBODY:
      break;  // Qt's rich text does not know them; a browser does not need them
    case MD_BLOCK_TR:
      w.out += "<tr>";
      break;
    case MD_BLOCK_TH:
    case MD_BLOCK_TD: {
      const MD_ALIGN align = static_cast<const MD_BLOCK_TD_DETAIL*>(detail)->align;
      w.out += type == MD_BLOCK_TH ? "<th" : "<td";
      if (align == MD_ALIGN_LEFT) w.out += " align=\"left\"";
      if (align == MD_ALIGN_CENTER) w.out += " align=\"center\"";
      if (align == MD_ALIGN_RIGHT) w.out += " align=\"right\"";
      w.out += ">";
      break;
    }
  }
  return 0;
}

int leaveBlock(MD_BLOCKTYPE type, void* detail, void* data) {
  auto& w = *static_cast<Writer*>(data);
  switch (type) {
    case MD_BLOCK_DOC:
    case MD_BLOCK_THEAD:
    case MD_BLOCK_TBODY:
      break;
    case MD_BLOCK_QUOTE:
      w.out += "</blockquote>";
      break;
    case MD_BLOCK_UL:
      w.out += "</ul>";
      break;
    case MD_BLOCK_OL:
      w.out += "</ol>";
      break;
    case MD_BLOCK_LI:
      w.out += "</li>";
      break;
    case MD_BLOCK_HR:
      break;
    case MD_BLOCK_H: {
      const auto level = static_cast<int>(static_cast<const MD_BLOCK_H_DETAIL*>(detail)->level);
      w.out += "</h" + std::to_string(std::clamp(level + w.options->headingShift, 1, 6)) + ">";
      break;
    }
    case MD_BLOCK_CODE:
      w.out += "</code></pre>";
      break;
    case MD_BLOCK_HTML:
    case MD_BLOCK_P:
      w.out += "</p>";
      break;
    case MD_BLOCK_TABLE:
      w.out += "</table>";
      break;
    case MD_BLOCK_TR:
      w.out += "</tr>";
      break;
    case MD_BLOCK_TH:
      w.out += "</th>";
      break;
    case MD_BLOCK_TD:
      w.out += "</td>";
      break;
  }
  return 0;
}

int enterSpan(MD_SPANTYPE type, void* detail, void* data) {
  auto& w = *static_cast<Writer*>(data);
  if (w.inImage > 0) {
    if (type == MD_SPAN_IMG) ++w.inImage;
    return 0;
  }
  switch (type) {
    case MD_SPAN_EM:
      w.out += "<em>";
      break;
    case MD_SPAN_STRONG:
      w.out += "<strong>";
      break;
    case MD_SPAN_A: {
      const std::string_view href = attributeText(static_cast<const MD_SPAN_A_DETAIL*>(detail)->href);
      const bool safe = safeTarget(href);
      if (safe) w.out += "<a href=\"" + htmlEscape(href) + "\">";
      w.linked.push_back(safe);
      break;
    }
    case MD_SPAN_IMG:
      ++w.inImage;
      break;
    case MD_SPAN_CODE:
      w.out += "<code>";
      break;
    case MD_SPAN_DEL:
      w.out += "<s>";
      break;
    case MD_SPAN_U:
      w.out += "<u>";
      break;
    case MD_SPAN_LATEXMATH:
    case MD_SPAN_LATEXMATH_DISPLAY:
    case MD_SPAN_WIKILINK:
      break;  // not enabled by kFlags
  }
  return 0;
}

int leaveSpan(MD_SPANTYPE type, void*, void* data) {
  auto& w = *static_cast<Writer*>(data);
  if (w.inImage > 0) {
    if (type == MD_SPAN_IMG) --w.inImage;
    return 0;
  }
  switch (type) {
    case MD_SPAN_EM:
      w.out += "</em>";
      break;
    case MD_SPAN_STRONG:
      w.out += "</strong>";
      break;
    case MD_SPAN_A:
      if (!w.linked.empty()) {
        if (w.linked.back()) w.out += "</a>";
        w.linked.pop_back();
      }
      break;
    case MD_SPAN_CODE:
      w.out += "</code>";
      break;
    case MD_SPAN_DEL:
      w.out += "</s>";
      break;
    case MD_SPAN_U:
      w.out += "</u>";
      break;
    case MD_SPAN_IMG:
    case MD_SPAN_LATEXMATH:
    case MD_SPAN_LATEXMATH_DISPLAY:
    case MD_SPAN_WIKILINK:
      break;
  }
  return 0;
}

int text(MD_TEXTTYPE type, const MD_CHAR* chars, MD_SIZE size, void* data) {
  auto& w = *static_cast<Writer*>(data);
  const std::string_view t(chars, size);
  switch (type) {
    case MD_TEXT_NULLCHAR:
      w.out += "\xEF\xBF\xBD";  // U+FFFD, as CommonMark asks
      break;
    case MD_TEXT_BR:
      w.out += w.inImage > 0 ? " " : "<br>";
      break;
    case MD_TEXT_SOFTBR:
      w.out += w.inImage > 0 ? " " : "\n";
      break;
    case MD_TEXT_ENTITY:
      w.out += entity(t);
      break;
    case MD_TEXT_NORMAL:
    case MD_TEXT_CODE:
    case MD_TEXT_HTML:  // raw HTML is text here (MD_FLAG_NOHTML): shown, never interpreted
    case MD_TEXT_LATEXMATH:
      w.out += htmlEscape(t);
      break;
  }
  return 0;
}

}  // namespace

std::string markdownHtml(std::string_view markdown, const MarkdownHtmlOptions& options) {
  Writer w;
  w.options = &options;
  w.out.reserve(markdown.size() + markdown.size() / 4);
  if (markdown.size() > std::numeric_limits<MD_SIZE>::max())
    markdown = markdown.substr(0, std::numeric_limits<MD_SIZE>::max());
  MD_PARSER parser{};
  parser.abi_version = 0;
  parser.flags = kFlags;
  parser.enter_block = enterBlock;
  parser.leave_block = leaveBlock;
  parser.enter_span = enterSpan;
  parser.leave_span = leaveSpan;
  parser.text = text;
  // md4c fails only when it runs out of memory or a callback asks it to stop (these never do): then the
  // text is shown escaped, as it was before it was rendered.
  if (md_parse(markdown.data(), static_cast<MD_SIZE>(markdown.size()), &parser, &w) != 0)
    return "<p>" + htmlEscape(markdown) + "</p>";
  return w.out;
}

}  // namespace ks
